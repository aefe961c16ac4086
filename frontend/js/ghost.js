// A ghost race's ghost: a recorded game's progress (score, moves, cards left, pile
// heights, status — never a card), sent once by the server in the `ghost` frame and
// moved here on its own clock from the race's start, as if it were playing now.

import { SLOTS } from "./board.js";
import { gettext, interpolate, playerName } from "./i18n.js";

export const GHOST_ID = "ghost";

export class Ghost {
  /** @param {{of: "leader" | "best", name: string, points: Array}} ghost the frame's `ghost` */
  constructor({ of, name, points }) {
    this.name = of === "best" ? gettext("Your best") : interpolate(gettext("Ghost of %(name)s"), { name: playerName(name) });
    this.points = points; // [at_ms, score, moves, cards_left, heights | null, status], in time order
    this.shown = -1;
  }

  /** The index of the last point reached `elapsed` ms after the start. */
  reached(elapsed) {
    let index = 0;
    while (index + 1 < this.points.length && this.points[index + 1][0] <= elapsed) index += 1;
    return index;
  }

  /** The ghost as a player of the opponents panel, `elapsed` ms after the start. */
  player(elapsed) {
    const [, score, moves, cardsLeft, heights, status] = this.points[this.reached(elapsed)];
    return { id: GHOST_ID, ghost: true, name: this.name, status, score, moves, cards_left: cardsLeft, heights };
  }

  /** The ghost `elapsed` ms after the start, with the slots its last move changed,
   * if it moved since last asked; else null. */
  moved(elapsed) {
    const index = this.reached(elapsed);
    if (index === this.shown) return null;
    const before = this.points[this.shown]?.[4];
    this.shown = index;
    const now = this.player(elapsed);
    return { ...now, slots: before && now.heights ? changedSlots(before, now.heights) : [] };
  }
}

/** The slots whose height differs: the ones the ghost's last move took from. */
function changedSlots(before, after) {
  return SLOTS.filter((_, i) => before[i] !== after[i]);
}
