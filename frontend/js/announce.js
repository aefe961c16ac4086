// What a screen reader hears of the game: each move once ("5♠ and 6♦ removed — score
// 10, 1 move"), blocked and won with it, a refused move, and in a race the others'
// progress summed up at most every few seconds. Polite live regions, in the page's
// language; while a modal dialog is open the words go to a region inside it (the
// rest of the page is inert then). The felt's status line is no live region: a move
// that blocks or wins the game says so itself, once, and so does a ghost race's split.

import { TOTAL_CARDS } from "./board.js";
import { cardLabel } from "./cards.js";
import { gettext, interpolate, ngettext, playerName } from "./i18n.js";
import { statusText } from "./players.js";
import { splitText } from "./splits.js";

const SUMMARY_MS = 5000;
const QUIET = new Set(["waiting", "playing"]); // statuses a summary does not name

/** "score 10, 1 move" */
export function scoreText(score, moves) {
  const text = ngettext("score %(score)s, %(count)s move", "score %(score)s, %(count)s moves", moves);
  return interpolate(text, { score, count: moves });
}

/** The sentence for a `moved` answer, from the board it was played on. */
export function moveText(before, moved, lang = "en") {
  let what;
  if (moved.kind === "undo") {
    what = gettext("Move undone");
  } else {
    const [first, second, third] = moved.slots.map((slot) => cardLabel(before.slots[slot].top, lang));
    const format = third
      ? gettext("%(first)s, %(second)s and %(third)s removed")
      : gettext("%(first)s and %(second)s removed");
    what = interpolate(format, { first, second, third });
  }
  const parts = [`${what} — ${scoreText(moved.score, moved.moves)}`];
  if (moved.split) parts.push(splitText(moved.split, lang)); // a ghost race's, once
  if (moved.status === "blocked") parts.push(gettext("Blocked: no move is left."));
  if (moved.status === "won") parts.push(gettext("You won!"));
  return parts.join(". ");
}

/** "Ada: score 60, 82 cards left" (and how their game ended, once it has). */
export function playerText(player) {
  const format = ngettext(
    "%(name)s: score %(score)s, %(count)s card left",
    "%(name)s: score %(score)s, %(count)s cards left",
    player.cards_left,
  );
  const text = interpolate(format, { name: playerName(player.name), score: player.score, count: player.cards_left });
  return QUIET.has(player.status) ? text : `${text}, ${statusText(player.status)}`;
}

const mark = ({ score = 0, cards_left = TOTAL_CARDS, status = "waiting" }) =>
  `${score}/${cards_left}/${QUIET.has(status) ? "" : status}`;
const FRESH = mark({});

/**
 * The players whose progress changed since `seen` (id → mark, updated in place); one
 * not seen yet is compared with a fresh game (someone who comes in mid-race hears
 * where everyone is).
 */
export function progressChanges(players, seen) {
  const changed = [];
  for (const player of players) {
    const id = player.id ?? player.player;
    const now = mark(player);
    if ((seen.get(id) ?? FRESH) !== now) changed.push(player);
    seen.set(id, now);
  }
  return changed;
}

function region(parent, name) {
  const el = document.createElement("p");
  el.className = "visually-hidden";
  el.dataset.announcer = name;
  el.setAttribute("aria-live", "polite");
  el.setAttribute("aria-atomic", "true");
  parent.append(el);
  return el;
}

export class Announcer {
  /** @param {HTMLElement} root  where the page's regions go (each dialog in it gets one too) */
  constructor(root) {
    this.root = root;
    this.page = region(root, "game");
    this.race = region(root, "race");
    for (const dialog of root.querySelectorAll("dialog")) region(dialog, "game");
    this.seen = new Map();
  }

  /** Says `text` once, in the open dialog if there is one (the same words twice are said twice). */
  say(text) {
    const dialogs = this.root.querySelectorAll("dialog[open]");
    const el = dialogs.length ? dialogs[dialogs.length - 1].querySelector("[data-announcer]") : this.page;
    el.textContent = el.textContent === text ? `${text}\u00a0` : text;
  }

  /** A `moved` answer, played on `before`. */
  moved(before, moved, lang) {
    this.say(moveText(before, moved, lang));
  }

  /** Every few seconds, whose progress changed among `players()` (a race's others). */
  follow(players, everyMs = SUMMARY_MS) {
    const summarise = () => {
      const changed = progressChanges(players(), this.seen);
      if (changed.length && !this.root.querySelector("dialog[open]")) {
        this.race.textContent = changed.map(playerText).join("; ");
      }
    };
    summarise();
    return setInterval(summarise, everyMs);
  }
}
