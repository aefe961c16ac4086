// The replay page: a finished game step by step on the same table as play
// (table.js), from the replay the server put in the page (GET /api/replays/…
// has the same shape, docs/protocol.md). The step shown is `?move=N` in the
// URL, kept up to date, so a link opens at the same moment. With the "After-game
// analysis" setting on, the same controls also step through a winning line
// (analysis.js): the steps shown are the game's or that line's.

import { AnalysisPanel } from "./analysis.js";
import { boardFromState } from "./board.js";
import { drawRaceChart, drawScoreArea, PALETTE } from "./charts.js";
import { formatDuration } from "./clock.js";
import { gettext, interpolate, language } from "./i18n.js";
import { PlayersPanel, statusText } from "./players.js";
import { bindSettings } from "./settings.js";
import { Table } from "./table.js";

const $ = (selector) => document.querySelector(selector);
const replay = JSON.parse($("#replay-data").textContent);
const STEP_MS = 900; // one step at 1×
const NOTHING = new Set();
const PLAYED = new Set(["move", "line"]);

const table = new Table($("#table"), () => {});
const scrubber = $("#scrubber");
const playButton = $("#play");
const ui = { at: 0, timer: null, steps: replay.steps, line: false };
const last = () => ui.steps.length - 1;
/** The rows played (moves and undos): not the deal, nor a last step that is no move
 * (a game given up or out of time ends with one: game/race/history.py END). */
const rowsPlayed = () => ui.steps.filter((s) => s.kind !== "deal" && s.kind !== "end").length;

// ---- one moment ------------------------------------------------------------

function stepFromUrl() {
  const asked = Number.parseInt(new URL(window.location.href).searchParams.get("move"), 10);
  return Number.isFinite(asked) ? Math.min(last(), Math.max(0, asked)) : 0;
}

function stepText(step, index) {
  if (ui.line) return interpolate(gettext("Winning line · %(step)s of %(total)s"), { step: index, total: last() });
  const total = rowsPlayed();
  const where = interpolate(gettext("Move %(step)s of %(total)s"), { step: Math.min(index, total), total });
  if (index === analysis.lostStep) return `${where} · ${gettext("the move that lost it")}`;
  if (step.kind === "undo") return `${where} · ${gettext("undo")}`;
  return where;
}

function show(index) {
  ui.at = index;
  const step = ui.steps[index];
  const next = ui.steps[index + 1];
  const coming = new Set(PLAYED.has(next?.kind) ? next.changed : []);
  table.render(boardFromState(step), { lang: language(), selected: coming, dimmed: NOTHING, leaving: NOTHING, idle: true });
  $("#time").textContent = formatDuration(step.at_ms);
  $("#score").textContent = step.score;
  $("#moves").textContent = step.moves;
  $("#cards-left").textContent = step.cards_left;
  // A replay is of a game over: its status is said where it ends, not "playing" on the way.
  $("#step-status").textContent = step.status === "playing" ? "" : statusText(step.status);
  $("#step-status").dataset.status = step.status;
  scrubber.value = String(index);
  scrubber.setAttribute("aria-valuetext", stepText(step, index));
  $("#step-label").textContent = stepText(step, index);
  $("#step-back").disabled = index === 0;
  $("#step-forward").disabled = index === last();
  document.body.dataset.step = String(index);
  const playOnStep = document.querySelector("[data-play-on-step]");
  if (playOnStep) {
    playOnStep.value = String(index); // "Play on from here": this step of the game
    playOnStep.form.querySelector("button").disabled = Boolean(ui.line); // not a line no one played
  }
  if (ui.line) return; // a line no one played: not the race's moment, nor a link's
  race?.show(step.at_ms, index);
  const url = new URL(window.location.href);
  if (index) url.searchParams.set("move", String(index));
  else url.searchParams.delete("move"); // the start needs no mention
  window.history.replaceState(null, "", url);
}

// ---- playing ---------------------------------------------------------------

const playing = () => ui.timer !== null;

function pause() {
  clearTimeout(ui.timer);
  ui.timer = null;
  playButton.setAttribute("aria-label", gettext("Play the replay"));
  playButton.querySelector(".play-icon").textContent = "▶";
  playButton.setAttribute("aria-pressed", "false");
}

function tick() {
  if (ui.at >= last()) return pause();
  show(ui.at + 1);
  ui.timer = setTimeout(tick, STEP_MS / Number($("#speed").value));
}

function play() {
  if (ui.at >= last()) show(0);
  playButton.setAttribute("aria-label", gettext("Pause the replay"));
  playButton.querySelector(".play-icon").textContent = "❚❚";
  playButton.setAttribute("aria-pressed", "true");
  ui.timer = setTimeout(tick, STEP_MS / Number($("#speed").value));
}

const toggle = () => (playing() ? pause() : play());

function step(by) {
  pause();
  show(Math.min(last(), Math.max(0, ui.at + by)));
}

// ---- the race around the game ----------------------------------------------

/** Everyone's progress at the moment shown, on a chart of the whole race. */
class RacePanel {
  constructor(players) {
    this.players = players;
    this.panel = new PlayersPanel($("#players"));
    this.moveCursor = drawRaceChart($("#race-chart"), players, replay.duration_ms);
    $("#race-duration").textContent = formatDuration(replay.duration_ms);
    players.forEach((player, i) => {
      this.panel.update(this.at(player, 0, 0), null);
      const card = this.panel.cards.get(player.id);
      card.style.setProperty("--player-color", PALETTE[i % PALETTE.length]);
      card.classList.toggle("watched", player.id === replay.player.id);
      if (player.url && player.id !== replay.player.id) {
        const link = document.createElement("a");
        link.className = "watch-link";
        link.href = player.url;
        link.textContent = gettext("Watch this replay");
        card.append(link);
      }
    });
    $("#race-panel").hidden = false;
  }

  /** A player as the panel shows them: the watched one at this very step, others at this time. */
  at(player, atMs, index) {
    const own = player.id === replay.player.id;
    const reached = own ? player.steps[index] : player.steps.findLast((s) => s.at_ms <= atMs) || player.steps[0];
    return { id: player.id, name: player.name, connected: true, ...reached };
  }

  show(atMs, index) {
    const now = this.players.map((player) => this.at(player, atMs, index));
    for (const player of now) this.panel.update(player, null);
    this.moveCursor(atMs, now.map((player) => player.score));
  }
}

// ---- the game, or a winning line -------------------------------------------

/** Shows `steps` on the table, the scrubber and its chart, from `index`. */
function follow(steps, index, line) {
  pause();
  Object.assign(ui, { steps, line });
  scrubber.max = String(last());
  drawScoreArea($("#score-chart"), steps);
  show(index);
}

const analysis = new AnalysisPanel($("#analysis"), $("#lost-marker"), {
  url: `/api/replays/${replay.room}/${replay.player.id}/analysis/`,
  game: replay.steps,
  on: {
    answered: () => show(ui.at), // the step label names the move that lost it
    goTo: (index) => step(index - ui.at),
    enterLine: (steps) => follow(steps, 0, true),
    leaveLine: (index) => follow(replay.steps, index, false),
  },
});

// ---- start -----------------------------------------------------------------

scrubber.max = String(last());
drawScoreArea($("#score-chart"), ui.steps);
const race = replay.players.length > 1 ? new RacePanel(replay.players) : null;

scrubber.addEventListener("input", () => {
  pause();
  show(Number(scrubber.value));
});
playButton.addEventListener("click", toggle);
$("#step-back").addEventListener("click", () => step(-1));
$("#step-forward").addEventListener("click", () => step(1));
$("#speed").addEventListener("change", () => {
  if (playing()) {
    pause();
    play();
  }
});
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return; // the scrubber has its own arrows
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    step(event.key === "ArrowLeft" ? -1 : 1);
    event.preventDefault();
  } else if (event.key === " ") {
    toggle();
    event.preventDefault(); // not also a click on the focused button
  }
});

show(stepFromUrl());
const settings = bindSettings($("#settings"), (changed) => {
  analysis.turn(changed.analysis);
  show(ui.at);
});
analysis.turn(settings.analysis);
document.body.dataset.ready = "replay";
