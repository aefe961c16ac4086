// The offline table: with no network the service worker (game/templates/game/sw.js)
// serves this page for any /play/HM1-N-…/, and the code in the address is dealt here
// by hm1.js exactly as the server deals it, then played by practice.js. A practice
// game only: nothing is sent, nothing is ranked, and the page says so.

import { formatDuration, showDuration } from "./clock.js";
import { bindDialogs, closeDialog, openDialog, toast } from "./dialogs.js";
import { bindNewGameForm } from "./deals.js";
import { faceDownBoard } from "./board.js";
import { MOVE_ERRORS } from "./errors.js";
import { celebrate } from "./celebrate.js";
import { dealFromCode } from "./hm1.js";
import { gettext, language } from "./i18n.js";
import { bindKeyboard } from "./keyboard.js";
import { PracticeGame } from "./practice.js";
import { canJoin } from "./rules.js";
import { tap } from "./selection.js";
import { bindSettings } from "./settings.js";
import { sound } from "./sounds.js";
import { Table } from "./table.js";

const $ = (selector) => document.querySelector(selector);
const [, page, typed] = location.pathname.split("/");
const code = page === "play" ? decodeURIComponent(typed || "").toUpperCase() : "";
const deal = dealFromCode(code);
const ui = { game: deal && new PracticeGame(deal), selected: [], settings: null, started: Date.now(), ended: null };
const table = new Table($("#table"), onTap);

function onTap(slot) {
  const { game } = ui;
  if (!game || game.status !== "playing") return;
  const card = game.top(slot);
  if (!card) return;
  const result = tap(ui.selected, { slot, card });
  ui.selected = result.selected;
  if (result.error) {
    sound("refusal");
    if (ui.settings.moveErrors) toast($("#move-error"), MOVE_ERRORS[result.error]);
  } else if (result.move) {
    game.remove(result.move);
    sound(game.status === "won" ? "win" : "removal");
  } else sound("tap");
  render();
  announce();
}

function undo() {
  if (!ui.game?.undo()) return;
  ui.selected = [];
  ui.ended = null;
  render();
  announce();
}

function restart() {
  for (const dialog of document.querySelectorAll("dialog")) closeDialog(dialog);
  ui.game = new PracticeGame(deal);
  Object.assign(ui, { selected: [], started: Date.now(), ended: null });
  render();
}

function render() {
  const board = ui.game?.board();
  if (!board) return;
  const selected = new Set(ui.selected.map((s) => s.slot));
  const dimmed = new Set();
  if (ui.settings.placementHelp && ui.selected.length) {
    const cards = ui.selected.map((s) => s.card);
    for (const [slot, { top }] of Object.entries(board.slots)) {
      if (top && !selected.has(slot) && !canJoin(cards, top)) dimmed.add(slot);
    }
  }
  const idle = board.status !== "playing";
  table.render(board, { lang: language(), selected, dimmed, leaving: new Set(), idle });
  $("#score").textContent = board.score;
  $("#moves").textContent = board.moves;
  $("#undo").disabled = !board.can_undo;
}

function announce() {
  const { status, score, moves } = ui.game.board();
  if (status === "blocked") openDialog($("#blocked"));
  else closeDialog($("#blocked"));
  if (status !== "won" || ui.ended) return;
  ui.ended = Date.now();
  $("#won-time").textContent = formatDuration(ui.ended - ui.started);
  $("#won-score").textContent = score;
  $("#won-moves").textContent = moves;
  openDialog($("#won"));
  celebrate($("#table"));
}

function tick() {
  if (ui.game) showDuration($("#time"), (ui.ended ?? Date.now()) - ui.started);
}

/** A code this page cannot deal (a custom deal is only its server's): said on the felt,
 * over the arc face down (each slot still named for a screen reader). */
function cannotDeal() {
  const none = new Set();
  table.render(faceDownBoard(), { lang: language(), selected: none, dimmed: none, leaving: none, idle: true });
  const status = $("#table-status");
  status.textContent = gettext("Offline, only a numbered deal (HM1-N-…) can be played: a custom deal needs the server.");
  status.hidden = false;
}

document.body.dataset.phase = "running";
document.body.dataset.role = "player";
document.body.dataset.offline = "true";
$(".deal-code-value").textContent = deal ? deal.code : code;
document.title = `${deal ? deal.code : code} · Half Moon Race`;
for (const button of document.querySelectorAll("[data-give-up], #rematch, #new-race")) button.hidden = true;
ui.settings = bindSettings($("#settings"), (settings) => {
  ui.settings = settings;
  render();
});
bindDialogs();
bindKeyboard($("#table"), { onUndo: undo, onEscape: () => ((ui.selected = []), render()) });
bindNewGameForm($("#new-game-form"));
$("#undo").addEventListener("click", undo);
$("#blocked-undo").addEventListener("click", () => (closeDialog($("#blocked")), undo()));
$("#new-game").addEventListener("click", () => openDialog($("#new-game-dialog")));
for (const button of document.querySelectorAll("[data-new-game]")) {
  button.addEventListener("click", () => (closeDialog(button.closest("dialog")), openDialog($("#new-game-dialog"))));
}
for (const button of document.querySelectorAll("[data-restart]")) button.addEventListener("click", restart);
if (deal) render();
else cannotDeal();
setInterval(tick, 250);
