// An event's live standings (its page, the table's side panel): the server pushes the
// top 20 at most once a second, and this viewer's rank and neighbours beside them
// (docs/protocol.md, "Events"). On the table, a game that is over leads to the next
// deal after a short pause, said aloud first.

import { gettext, interpolate, ngettext, playerName } from "./i18n.js";
import { RaceSocket } from "./net.js";

const NEXT_DEAL_MS = 3000;
const root = document.querySelector("[data-event-standings]");
const $ = (selector) => root.querySelector(selector);
const state = { you: null, rank: null };

const MARKS = { held: () => gettext("held for review"), guests: () => gettext("guest") };

function line({ rank, id, name, points, wins, list }, mixed) {
  const row = document.createElement("tr");
  if (id === state.you) row.className = "you";
  for (const text of [rank ?? "–", playerName(name), points, wins]) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(cell);
  }
  if (list === "held" || (list === "guests" && mixed)) {
    // a held result is out of the ranks (docs/fair-play.md, "Events"); a guest's in its own
    const mark = document.createElement("span");
    mark.className = list === "held" ? "event-mark held" : "event-mark";
    if (list === "held") mark.dataset.held = "";
    mark.textContent = MARKS[list]();
    row.children[1].append(" ", mark);
  }
  return row;
}

const mixedIn = (lines) => lines.some((one) => one.list === "ranked"); // guests marked only then

function standings({ top, players, over }) {
  const mixed = mixedIn(top);
  $("[data-event-rows]").replaceChildren(...top.map((one) => line(one, mixed)));
  $("[data-event-count]").textContent = interpolate(
    ngettext("%(count)s player", "%(count)s players", players),
    { count: players },
  );
  if (over && document.querySelector("main.event-page")) location.reload(); // final standings
}

function mine({ rank, players, near, you }) {
  state.you = you;
  const mixed = mixedIn(near);
  $("[data-event-near-rows]").replaceChildren(...near.map((one) => line(one, mixed)));
  $("[data-event-near]").hidden = false;
  if (rank === state.rank) return; // said once per change: the region is polite, not chatty
  state.rank = rank;
  $("[data-event-you]").textContent = interpolate(gettext("Your rank: %(rank)s of %(players)s"), {
    rank: rank ?? "–",
    players,
  });
}

const socket = new RaceSocket(`/ws/event/${root.dataset.eventStandings}/`, {
  onMessage(msg) {
    if (msg.type === "standings") standings(msg);
    else if (msg.type === "standings_you") mine(msg);
  },
});
socket.connect();

/** On the table: once the game's end dialog opens, the next deal follows. */
function nextDealAfterGames() {
  for (const dialog of document.querySelectorAll("dialog#won, dialog#game-over")) {
    const next = dialog.querySelector("[data-next-deal]");
    if (!next) continue;
    new MutationObserver(() => {
      if (!dialog.open || next.dataset.going) return;
      next.dataset.going = "1";
      const note = document.createElement("p");
      note.setAttribute("role", "status");
      note.textContent = gettext("The next deal starts in a moment…");
      dialog.prepend(note);
      setTimeout(() => location.assign(next.href), NEXT_DEAL_MS);
    }).observe(dialog, { attributes: true, attributeFilter: ["open"] });
  }
}
nextDealAfterGames();
