// What a screen reader hears (announce.js): a move's sentence from the board it was
// played on, and which of a race's players moved since the last summary.

import assert from "node:assert/strict";
import { test } from "node:test";

import { moveText, playerText, progressChanges } from "../../frontend/js/announce.js";

const board = { slots: { P1: { top: "5S" }, P8: { top: "6D" }, P3: { top: "KH" }, P5: { top: "QH" }, R7: { top: "JH" } } };

test("a pair names both cards, the score and the move count", () => {
  const moved = { kind: "move", slots: ["P1", "P8"], score: 10, moves: 1, status: "playing" };
  assert.equal(moveText(board, moved), "5♠ and 6♦ removed — score 10, 1 move");
});

test("a trio names its three cards in the page's letters, then blocked or won", () => {
  const moved = { kind: "move", slots: ["R7", "P5", "P3"], score: 25, moves: 2, status: "blocked" };
  assert.equal(moveText(board, moved, "fr"), "V♥, D♥ and R♥ removed — score 25, 2 moves. Blocked: no move is left.");
  const won = { ...moved, status: "won", score: 520, moves: 48 };
  assert.equal(moveText(board, won), "J♥, Q♥ and K♥ removed — score 520, 48 moves. You won!");
});

test("an undo says so", () => {
  const moved = { kind: "undo", slots: ["P1", "P8"], score: 0, moves: 0, status: "playing" };
  assert.equal(moveText(board, moved), "Move undone — score 0, 0 moves");
});

test("a summary names only the players whose progress changed since the last one", () => {
  const seen = new Map();
  const ada = { id: 1, name: "Ada", score: 0, cards_left: 104, status: "waiting" };
  const bob = { id: 2, name: "Bob", score: 0, cards_left: 104, status: "waiting" };
  assert.deepEqual(progressChanges([ada, bob], seen), []); // a fresh game: nothing to say
  const started = [{ ...ada, status: "playing" }, { ...bob, status: "playing" }];
  assert.deepEqual(progressChanges(started, seen), []); // the start is no progress
  const moved = [{ ...started[0], score: 10, cards_left: 102 }, started[1]];
  assert.deepEqual(progressChanges(moved, seen).map(playerText), ["Ada: score 10, 102 cards left"]);
  assert.deepEqual(progressChanges(moved, seen), []);
  const won = [{ ...moved[0], score: 520, cards_left: 0, status: "won" }, started[1]];
  assert.deepEqual(progressChanges(won, seen).map(playerText), ["Ada: score 520, 0 cards left, won"]);
  assert.equal(playerText({ ...bob, cards_left: 1, status: "playing" }), "Bob: score 0, 1 card left");
  const late = new Map(); // someone who comes in mid-race hears where everyone is
  assert.deepEqual(progressChanges(won, late).map(playerText), ["Ada: score 520, 0 cards left, won"]);
});
