// A practice game played in the browser alone, for the offline table: the rule book's
// removals, score, undo and end, as game/engine/game.py plays them (the same 100 undos,
// 10 points a pair, 15 a trio, blocked when no pair making 11 and no J-Q-K is playable).
// It is never ranked and never sent: no server sees it.

import { PILES, RESERVE, SLOTS } from "./board.js";
import { value } from "./cards.js";
import { FITS, judge } from "./rules.js";

const UNDO_LIMIT = 100;
const POINTS = { 2: 10, 3: 15 };

export class PracticeGame {
  /** @param {{piles: string[][], reserve: string[]}} deal  bottom -> top, as hm1.js deals */
  constructor(deal) {
    this.stacks = {};
    PILES.forEach((slot, i) => (this.stacks[slot] = [...deal.piles[i]]));
    RESERVE.forEach((slot, i) => (this.stacks[slot] = [deal.reserve[i]]));
    this.score = 0;
    this.moves = 0;
    this.history = []; // [slots, cards] of the moves that can be undone
  }

  top(slot) {
    return this.stacks[slot].at(-1) ?? null;
  }

  get left() {
    return SLOTS.reduce((sum, slot) => sum + this.stacks[slot].length, 0);
  }

  get status() {
    if (!this.left) return "won";
    const present = new Set(SLOTS.map((slot) => this.top(slot)).filter(Boolean).map(value));
    for (let low = 1; low <= 5; low += 1) if (present.has(low) && present.has(11 - low)) return "playing";
    return [11, 12, 13].every((v) => present.has(v)) ? "playing" : "blocked";
  }

  /** Removes the top cards of `slots`; returns null, or the refusal's code (rules.js). */
  remove(slots) {
    const cards = slots.map((slot) => this.top(slot));
    if (new Set(slots).size !== slots.length || cards.includes(null)) return "not_playable";
    const verdict = judge(cards);
    if (verdict !== FITS) return verdict;
    for (const slot of slots) this.stacks[slot].pop();
    this.history.push([slots, cards]);
    if (this.history.length > UNDO_LIMIT) this.history.shift();
    this.score += POINTS[slots.length];
    this.moves += 1;
    return null;
  }

  undo() {
    const last = this.history.pop();
    if (!last) return false;
    const [slots, cards] = last;
    slots.forEach((slot, i) => this.stacks[slot].push(cards[i]));
    this.score -= POINTS[slots.length];
    this.moves -= 1;
    return true;
  }

  /** The board as board.js models the server's (what table.js draws). */
  board() {
    const slots = {};
    for (const slot of SLOTS) slots[slot] = { count: this.stacks[slot].length, top: this.top(slot) };
    const { score, moves, status } = this;
    return { slots, score, moves, status, cards_left: this.left, seq: moves, can_undo: this.history.length > 0 };
  }
}
