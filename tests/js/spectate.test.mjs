// A spectator's felt: who leads, and a player's board from their pile heights alone,
// face up where the deal's code is known, face down where it is hidden.

import assert from "node:assert/strict";
import { test } from "node:test";

import { leader, stacksOf, watchedBoard } from "../../frontend/js/spectate.js";

const DEALT = [...Array(12).fill(8), ...Array(8).fill(1)];
const AFTER_P1_P8 = DEALT.map((count, i) => (i === 0 || i === 7 ? count - 1 : count));
const player = (id, cards_left, extra = {}) => ({ id, name: `p${id}`, status: "playing", score: 0, moves: 0, cards_left, heights: DEALT, ...extra });

test("a winner leads, then whoever has the fewest cards left, then the better score", () => {
  assert.equal(leader([player(1, 90), player(2, 60), player(3, 80)]).id, 2);
  assert.equal(leader([player(1, 10), player(2, 40, { status: "won" })]).id, 2);
  assert.equal(leader([player(1, 60, { score: 40 }), player(2, 60, { score: 55 })]).id, 2);
  assert.equal(leader([]), null);
});

test("on a public code each slot's top is the deal's card at its height", () => {
  const stacks = stacksOf("HM1-N-AAAAAAB"); // the rule book's deal
  const board = watchedBoard(player(1, 102, { heights: AFTER_P1_P8, moves: 1, score: 10 }), stacks);
  assert.equal(board.slots.P1.count, 7);
  assert.equal(board.slots.P1.top, stacks[0][6]);
  assert.notEqual(board.slots.P1.top, "5S"); // the 5♠ went with the 6♦
  assert.equal(board.slots.R1.top, "10H");
  assert.deepEqual([board.score, board.moves], [10, 1]);
});

test("on a hidden code, or a custom deal, every slot is its count face down", () => {
  assert.equal(stacksOf(null), null);
  assert.equal(stacksOf("HM1-C-AAAAAAB"), null);
  const board = watchedBoard(player(1, 102, { heights: AFTER_P1_P8 }), null);
  assert.equal(board.slots.P1.count, 7);
  assert.ok(Object.values(board.slots).every((slot) => slot.top === null));
});
