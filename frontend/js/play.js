// The table page: solo games, the daily deal and races. It sends whole moves and
// renders what the server answers; the only thing it decides alone is which cards
// are selected (selection.js), exactly as the rule book's taps say.

import { Announcer } from "./announce.js";
import { postJSON } from "./api.js";
import { applyMoved, boardFromState, faceDownBoard } from "./board.js";
import { ServerClock, dueWarning, formatDuration, showDuration } from "./clock.js";
import { ask, bindDialogs, closeDialog, openDialog, toast } from "./dialogs.js";
import { setText } from "./dom.js";
import { bindNewGameForm } from "./deals.js";
import { DONE, mayAskRematch, tableStatus } from "./ending.js";
import { showEndRank, showEndStats } from "./endstats.js";
import { MOVE_ERRORS, errorText } from "./errors.js";
import { Ghost } from "./ghost.js";
import { showGhostOffer } from "./ghostoffer.js";
import { gettext, interpolate, language, playerName } from "./i18n.js";
import { bindKeyboard } from "./keyboard.js";
import { guardLeaving } from "./leave.js";
import { RaceSocket } from "./net.js";
import { PlayersPanel } from "./players.js";
import { canJoin } from "./rules.js";
import { bindJoinForm, fillStandings, rememberedName, runCountdown, stopCountdown } from "./room.js";
import { stillOnTop, tap } from "./selection.js";
import { bindSettings } from "./settings.js";
import { Spectator, stacksOf, watchedBoard } from "./spectate.js";
import { fillSplits, latestSplit, showSplit } from "./splits.js";
import { celebrate } from "./celebrate.js"; // delight: the win's celebration and sounds
import { sound } from "./sounds.js";
import { Table } from "./table.js";

const $ = (selector) => document.querySelector(selector);
const config = $("main.play").dataset; // room, mode, dealCode, wsPath

const clock = new ServerClock();
const ui = {
  you: null,
  race: null,
  players: [],
  board: null,
  ghost: null, // a ghost race's recorded game (ghost.js)
  split: null, // a ghost race's last split, and the table of them (splits.js)
  splits: [],
  selected: [],
  pending: [], // frames sent and not yet answered, in seq order
  settings: null,
  stoppedAt: null, // when a game ended here, until a `state` brings the server's time
  afterResign: null, // what to do once the server has this player's resignation
  wonShown: false, // the "won" dialog opens once per page
  gameOverShown: false, // so does "game over" (resigned or timed out)
  standingsShown: false, // and the standings
  restarting: false, // a restart asked for, its answer not in yet
  warned: null, // the last time-left warning given (clock.js WARNINGS)
};

const table = new Table($("#table"), onTap);
const panel = new PlayersPanel($("#players"));
const spectator = new Spectator($("#watch-bar"), render);
const announcer = new Announcer($("main.play"));
const socket = new RaceSocket(config.wsPath, {
  onMessage: receive,
  onOpen: () => setConnection("connected"),
  onDown: () => setConnection("reconnecting"),
  onGone: () => setConnection("gone"),
});

// ---- taps and moves -------------------------------------------------------

const IN_PLAY = ["playing", "blocked"];
const GAVE_UP = ["resigned", "timed_out", "abandoned"];
const canPlay = () => ui.board && ui.race?.status === "running" && IN_PLAY.includes(ui.board.status);
const canTap = () => canPlay() && ui.board.status === "playing";
const racing = () => config.mode === "race" && canPlay();
const leaving = () => new Set(ui.pending.flatMap((frame) => frame.slots || []));

function onTap(slot) {
  if (!canTap()) return;
  const card = ui.board.slots[slot].top;
  if (!card || leaving().has(slot)) return;
  const result = tap(ui.selected, { slot, card });
  ui.selected = result.selected;
  sound(result.error ? "refusal" : result.move ? null : "tap");
  if (result.error && ui.settings.moveErrors) toast($("#move-error"), MOVE_ERRORS[result.error]);
  else if (result.error && !result.selected.length) announcer.say(gettext("Selection cleared"));
  if (result.move) send({ type: "move", slots: result.move });
  render();
}

function undo() {
  if (!canPlay() || !ui.board.can_undo || ui.pending.length) return;
  ui.selected = [];
  send({ type: "undo" });
  render();
}

function send(frame) {
  const last = ui.pending.at(-1)?.seq ?? ui.board.seq;
  const numbered = { ...frame, seq: last + 1 };
  ui.pending.push(numbered);
  socket.send(numbered);
}

/** "Give up" asks first (on the daily: the day's only attempt); cancelled, nothing is sent. */
async function giveUp(event) {
  if (!canPlay()) return;
  const agreed = await ask($("#give-up"), event.currentTarget);
  if (agreed && canPlay()) socket.send({ type: "resign" });
}

/** A solo game's deal again from the start, as a new game (the server keeps the old one in
 * the history). From the table it asks first while a game with moves is in play. */
async function restart(event) {
  const button = event.currentTarget;
  const dialog = button.closest("dialog");
  if (dialog) closeDialog(dialog);
  else if (canPlay() && ui.board.moves && !(await ask($("#restart-dialog"), button))) return;
  if (ui.restarting) return;
  const shown = ui.gameOverShown;
  ui.restarting = ui.gameOverShown = true; // the old game ends on the way out: no "game over"
  const { ok, data } = await postJSON(`/api/races/${config.room}/restart/`);
  if (ok) return location.assign(data.url);
  ui.restarting = false;
  ui.gameOverShown = shown;
  toast($("#message"), errorText(data.error));
}

/** Gives this game up; `then` runs once the server has taken it (at once when offline). */
function resignThen(then) {
  ui.gameOverShown = true; // the player is leaving: no "game over" on the way out
  if (socket.send({ type: "resign" })) ui.afterResign = then;
  else then();
}

/** A game ended here: the clock stops at the server's time if the frame said it, else
 * now, and a `state` brings the server's exact time. */
function clockStops(serverTime = null) {
  if (ui.stoppedAt !== null) return;
  ui.stoppedAt = serverTime ?? clock.now();
  if (serverTime === null) socket.send({ type: "sync" });
}

/** After a (re)connect: moves the server never acknowledged go again, same seq. */
function resendPending() {
  ui.pending = ui.pending.filter((frame) => frame.seq > ui.board.seq);
  for (const frame of ui.pending) socket.send(frame);
}

// ---- what the server says -------------------------------------------------

const handlers = {
  state(msg) {
    ui.you = msg.you;
    ui.race = msg.race;
    ui.players = msg.players;
    ui.stoppedAt = null; // the state's own times say when the clock stopped
    if (msg.board) {
      ui.board = boardFromState(msg.board);
      ui.selected = canTap() ? stillOnTop(ui.selected, ui.board) : [];
      resendPending();
    } else {
      ui.board = null;
    }
    panel.setPlayers(opponents(), ui.you.player);
    phase();
    if (msg.standings) showStandings(msg.standings);
    announceBoard();
  },
  host({ player }) {
    ui.race = { ...ui.race, host: player };
    ui.you = { ...ui.you, host: player === ui.you.player };
    ui.players = ui.players.map((p) => ({ ...p, host: p.id === player }));
    panel.setPlayers(opponents(), ui.you.player);
    phase();
  },
  player_joined({ player }) {
    ui.players = [...ui.players.filter((p) => p.id !== player.id), player];
    if (player.id !== ui.you.player) panel.update(player, ui.you.player);
    phase();
  },
  player_left({ player }) {
    ui.players = ui.players.map((p) => (p.id === player ? { ...p, connected: false } : p));
    panel.setConnected(player, false);
  },
  countdown({ starts_at }) {
    ui.race = { ...ui.race, status: "countdown", starts_at };
    phase();
  },
  started({ started_at, ends_at }) {
    ui.race = { ...ui.race, status: "running", started_at, ends_at };
    phase(); // the server follows `started` with each player's `state` and board
  },
  moved(msg) {
    ui.pending = ui.pending.filter((frame) => frame.seq > msg.seq);
    if (msg.seq <= ui.board.seq) return; // a retry's answer we already have
    const before = ui.board;
    ui.board = applyMoved(ui.board, msg);
    if (msg.kind !== "undo") sound(msg.status === "won" ? "win" : "removal");
    if (msg.status === "won") clockStops();
    if (msg.split) ui.split = msg.split;
    announceBoard();
    announcer.moved(before, msg, language());
  },
  rejected(msg) {
    ui.pending = [];
    ui.selected = [];
    sound("refusal");
    if (MOVE_ERRORS[msg.code]) {
      if (ui.settings.moveErrors) toast($("#move-error"), MOVE_ERRORS[msg.code]);
      else announcer.say(gettext("Move refused"));
    } else {
      toast($("#message"), errorText(msg));
      socket.send({ type: "sync" });
    }
  },
  progress(msg) {
    ui.players = ui.players.map((p) => (p.id === msg.player ? { ...p, ...msg, id: p.id } : p));
    if (msg.player !== ui.you.player) panel.update({ ...msg, id: msg.player }, ui.you.player);
    else if (ui.board) ui.board = { ...ui.board, status: msg.status }; // e.g. resigned
    if (msg.player === ui.you.player && DONE.includes(msg.status)) clockStops(msg.finished_at);
  },
  finished({ standings, finished_at, deal, splits }) {
    ui.race = { ...ui.race, status: "finished", finished_at };
    clockStops(finished_at);
    socket.send({ type: "sync" }); // who timed out is in the state, not in a progress
    if (deal) revealDeal(deal); // a hidden deal's code, now that the race is over
    if (splits) showSplits(splits);
    phase();
    showStandings(standings);
  },
  rematch({ url }) {
    location.assign(url);
  },
  requeued({ players }) {
    // Too few of a quick race's players came: those who did queue again, at the front.
    if (players.includes(ui.you.player)) location.assign(ui.race.rated ? "/?quick=rated" : "/?quick=1");
  },
  ghost({ ghost, splits }) {
    ui.ghost = new Ghost(ghost);
    ui.split = latestSplit(splits);
    showSplits(splits);
    panel.setPlayers(opponents(), ui.you.player);
    phase();
  },
  error(msg) {
    if (msg.code === "no_such_race") return setConnection("gone");
    toast($("#message"), errorText(msg));
    if (msg.code === "server_error") socket.send({ type: "sync" });
  },
};

// Frames that mean something before this page's first `state`; a race's frame before
// it is already in that state (the server sends the state first; this is in case).
const BEFORE_STATE = new Set(["state", "error", "pong"]);

function receive(msg) {
  clock.sync(msg.now);
  if (!ui.you && !BEFORE_STATE.has(msg.type)) return;
  handlers[msg.type]?.(msg);
  render();
  announceGameOver();
  if (ui.afterResign && !canPlay()) {
    const then = ui.afterResign;
    ui.afterResign = null;
    then();
  }
}

/** Everyone else in the panel: the other players, and a ghost race's ghost. */
function opponents() {
  const others = ui.players.filter((p) => p.id !== ui.you.player);
  return ui.ghost ? [...others, ui.ghost.player(ghostElapsed())] : others;
}

/** The ghost runs on its own clock from the start, whenever this player's game ends. */
const ghostElapsed = () => (ui.race?.started_at ? clock.now() - ui.race.started_at : 0);

// ---- drawing --------------------------------------------------------------

/** What the felt shows: the player's own board; a spectator's, the watched player's. */
function shownBoard() {
  if (ui.board) return ui.board;
  if (ui.you.role !== "spectator" || ui.race.status === "lobby") return faceDownBoard();
  spectator.show(ui.players, panel);
  return watchedBoard(spectator.watched(), stacksOf(config.dealCode));
}

function render() {
  if (!ui.race) return;
  const board = shownBoard();
  const selected = new Set(ui.selected.map((s) => s.slot));
  const dimmed = new Set();
  if (ui.settings.placementHelp && ui.selected.length) {
    const cards = ui.selected.map((s) => s.card);
    for (const [slot, { top }] of Object.entries(board.slots)) {
      if (top && !selected.has(slot) && !canJoin(cards, top)) dimmed.add(slot);
    }
  }
  table.render(board, { lang: language(), selected, dimmed, leaving: leaving(), idle: !canTap() });
  const status = tableStatus(ui.race, ui.you.role, ui.board?.status);
  setText($("#table-status"), status);
  $("#table-status").hidden = !status;
  $("#show-standings").hidden = !ui.standingsShown || $("#standings").open;
  $("#rematch").hidden = !mayAskRematch(ui.you, ui.players); // the host may leave meanwhile
  const shareRace = $("#standings [data-share]");
  shareRace.hidden = ui.you.role !== "player" || !DONE.includes(ui.board?.status); // one's own game, over
  setText($("#score"), String(board.score));
  setText($("#moves"), String(board.moves));
  if ($("#split")) showSplit($("#split"), ui.split, language());
  $("#undo").disabled = !canPlay() || !board.can_undo;
  const resign = $("#resign");
  if (resign) resign.hidden = !canPlay();
  const restartButton = $("#restart");
  if (restartButton) restartButton.hidden = !ui.board; // a player's, once dealt
  showAnalysisLinks();
}

/** The end dialogs lead to the replay's after-game analysis only for a player who turned
 * it on, once the race is over and its deal's code is known (never today's daily deal). */
function showAnalysisLinks() {
  const over = ui.race.status === "finished" && Boolean(config.dealCode);
  const analysable = ui.settings.analysis && ui.you.role === "player" && over;
  for (const link of document.querySelectorAll("[data-analysis-link]")) {
    link.hidden = !analysable;
    link.href = `/replay/${config.room}/${ui.you.player}/`;
  }
}

function elapsed() {
  const race = ui.race;
  if (!race?.started_at) return 0;
  const me = ui.players.find((p) => p.id === ui.you?.player);
  const end = me?.finished_at ?? race.finished_at ?? ui.stoppedAt ?? clock.now();
  return end - race.started_at;
}

function tick() {
  showDuration($("#time"), elapsed());
  warnTimeLeft();
  const ghost = ui.ghost?.moved(ghostElapsed());
  if (ghost) panel.update(ghost, ui.you.player);
}

/** A timed game says so five minutes and one minute before its end; the clock turns red. */
function warnTimeLeft() {
  const endsAt = ui.race?.ends_at;
  const left = endsAt && canPlay() ? endsAt - clock.now() : null;
  $("#time").classList.toggle("running-out", left !== null && dueWarning(left) !== null);
  const due = left === null ? null : dueWarning(left, ui.warned);
  if (due === null) return;
  ui.warned = due;
  const text = interpolate(gettext("Time left: %(time)s"), { time: formatDuration(left) });
  toast($("#message"), text, 6000);
}

/** Which part of the page shows: lobby, countdown, the running table, the end. */
function phase() {
  const { race, you } = ui;
  document.body.dataset.phase = race.status;
  document.body.dataset.role = you.role;
  const joined = you.role === "player";
  $("#room").hidden = config.mode !== "race" || race.status !== "lobby";
  $("#join").hidden = joined;
  $("#start").hidden = !you.host || !joined;
  $("#lobby-players").replaceChildren(
    ...ui.players.map((p) => {
      const li = document.createElement("li");
      li.textContent = p.host ? `${playerName(p.name)} ★` : playerName(p.name);
      return li;
    }),
  );
  $("#players-panel").hidden = !opponents().length;
  $("#watch-bar").hidden = joined || race.status === "lobby";
  if (race.status === "countdown") runCountdown($("#countdown"), race.starts_at, clock);
  else stopCountdown($("#countdown"));
}

function announceBoard() {
  if (!ui.board) return;
  if (ui.board.status === "blocked") openDialog($("#blocked"));
  else closeDialog($("#blocked"));
  if (ui.board.status === "won") {
    showEndStats(ui.board, elapsed());
    // Once per page: in a race the standings follow when everyone is done.
    if (!ui.wonShown && (config.mode !== "race" || ui.race.status !== "finished")) {
      ui.wonShown = true;
      openDialog($("#won"));
      celebrate($("#table"));
      offerGhosts($("#won"));
      showEndRank($("#won"));
    }
  }
}

function announceGameOver() {
  if (!ui.board || !GAVE_UP.includes(ui.board.status) || ui.gameOverShown) return;
  if (config.mode === "race" && ui.race.status === "finished") return; // the standings say it
  ui.gameOverShown = true;
  closeDialog($("#blocked"));
  showEndStats(ui.board, elapsed());
  openDialog($("#game-over"));
  offerGhosts($("#game-over"));
  showEndRank($("#game-over"));
}

/** A ghost race's split table, in both end dialogs (filled once per table the server sends). */
function showSplits(rows) {
  ui.splits = rows;
  for (const container of document.querySelectorAll("[data-splits]")) fillSplits(container, rows, language());
}

/** A finished daily or ghost game's dialog offers a ghost race on that day's deal. */
function offerGhosts(dialog) {
  const offer = dialog.querySelector("[data-ghost-offer]");
  if (offer) showGhostOffer(offer);
}

/** Fills the standings; they open by themselves once per page, then from the felt. */
function showStandings(standings) {
  if (config.mode !== "race") return;
  fillStandings($("#standings-rows"), standings, ui.you.player);
  if (ui.standingsShown) return;
  ui.standingsShown = true;
  closeDialog($("#blocked"));
  closeDialog($("#game-over"));
  closeDialog($("#won"));
  openDialog($("#standings"));
}

/** A new race on a random deal, this viewer its host (and first player when named). */
async function newRace() {
  const name = ui.you.name || rememberedName();
  const { ok, data } = await postJSON("/api/races/", name ? { deal: "random", name } : { deal: "random" });
  if (ok) location.assign(data.url);
  else toast($("#message"), errorText(data.error));
}

function setConnection(status) {
  document.body.dataset.connection = status;
  $("#connection").hidden = status === "connected";
  $("#connection").textContent =
    status === "gone" ? errorText({ code: "no_such_race" }) : gettext("Connection lost — reconnecting…");
}

// ---- wiring ---------------------------------------------------------------

function revealDeal(code) {
  config.dealCode = code;
  $(".deal-code-value").textContent = code;
}

async function copyShareLink() {
  // A hidden deal (today's daily deal, a random race still running) is shared by its page.
  const solo = config.dealCode ? `/play/${config.dealCode}/` : `/race/${config.room}/`;
  const path = config.mode === "race" ? `/race/${config.room}/` : config.mode === "daily" && !config.dealCode ? "/daily/" : solo;
  const link = `${location.origin}${path}`;
  try {
    await navigator.clipboard.writeText(link);
    toast($("#message"), gettext("Link copied"));
  } catch {
    toast($("#message"), link, 6000);
  }
}

ui.settings = bindSettings($("#settings"), (settings) => {
  ui.settings = settings;
  render();
});
bindDialogs();
bindKeyboard($("#table"), {
  onUndo: undo,
  onEscape: () => {
    ui.selected = [];
    render();
  },
});
bindJoinForm($("#join"), (name) => socket.send({ type: "join", name }));
bindNewGameForm($("#new-game-form"));
const leave = guardLeaving($("#leave"), { racing, resign: resignThen });
const newGame = () => leave(() => openDialog($("#new-game-dialog")));
for (const link of document.querySelectorAll(".site-header a:not([target='_blank'])")) {
  link.addEventListener("click", (event) => {
    if (!racing()) return;
    event.preventDefault();
    leave(() => location.assign(link.href));
  });
}
$("#start").addEventListener("click", () => socket.send({ type: "start" }));
$("#undo").addEventListener("click", undo);
$("#blocked-undo").addEventListener("click", () => {
  closeDialog($("#blocked"));
  undo();
});
$("#deal-code").addEventListener("click", copyShareLink);
$("#new-game").addEventListener("click", newGame);
for (const button of document.querySelectorAll("[data-new-game]")) {
  button.addEventListener("click", () => {
    closeDialog(button.closest("dialog"));
    newGame();
  });
}
$("#rematch").addEventListener("click", () => socket.send({ type: "rematch" }));
$("#new-race").addEventListener("click", newRace);
$("#show-standings").addEventListener("click", () => {
  openDialog($("#standings"));
  render();
});
$("#standings").addEventListener("close", render);
for (const button of document.querySelectorAll("[data-give-up]")) button.addEventListener("click", giveUp);
for (const button of document.querySelectorAll("[data-restart]")) button.addEventListener("click", restart);
setInterval(tick, 250);
announcer.follow(() => (ui.race?.status === "running" ? opponents() : []));
socket.connect();
