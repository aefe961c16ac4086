// The offline practice game (frontend/js/practice.js) plays as game/engine/game.py:
// the rule book's winning line on its deal (game/engine/examples.py) scores 520 in 48
// moves; refusals, undo and the blocked end.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { dealFromCode } from "../../frontend/js/hm1.js";
import { PracticeGame } from "../../frontend/js/practice.js";

const examples = readFileSync(new URL("../../game/engine/examples.py", import.meta.url), "utf8");
const RULE_BOOK_WIN = [...examples.matchAll(/^\s*\(((?:"[PR]\d+",?\s*){2,3})\),$/gm)].map((m) =>
  [...m[1].matchAll(/"([PR]\d+)"/g)].map((s) => s[1]),
);

test("the rule book's line wins its deal with 520 points in 48 moves", () => {
  assert.equal(RULE_BOOK_WIN.length, 48);
  const game = new PracticeGame(dealFromCode("HM1-N-AAAAAAB"));
  for (const move of RULE_BOOK_WIN) {
    assert.equal(game.status, "playing");
    assert.equal(game.remove(move), null, move.join(" "));
  }
  assert.deepEqual([game.status, game.score, game.moves, game.left], ["won", 520, 48, 0]);
  assert.ok(Object.values(game.board().slots).every(({ count, top }) => count === 0 && top === null));
});

test("a move that does not fit is refused and changes nothing", () => {
  const game = new PracticeGame(dealFromCode("HM1-N-AAAAAAB"));
  assert.equal(game.remove(["P1", "P2"]), "sum_not_11"); // 5♠ A♥
  assert.equal(game.remove(["P3", "P5", "P12"]), "needs_jqk"); // K♥ Q♥ K♥
  assert.equal(game.remove(["P1", "P1"]), "not_playable");
  assert.deepEqual([game.score, game.moves, game.board().can_undo], [0, 0, false]);
});

test("undo puts the cards back and takes the points away", () => {
  const game = new PracticeGame(dealFromCode("HM1-N-AAAAAAB"));
  game.remove(["P1", "P8"]); // 5♠ 6♦
  game.remove(["P8", "P5", "P3"]); // J♣ Q♥ K♥
  assert.deepEqual([game.score, game.moves, game.top("P1")], [25, 2, "7H"]);
  assert.ok(game.undo());
  assert.ok(game.undo());
  assert.deepEqual([game.score, game.moves, game.top("P1"), game.top("P8")], [0, 0, "5S", "6D"]);
  assert.equal(game.undo(), false);
});

test("a board with no pair making 11 and no Jack, Queen and King is blocked", () => {
  const piles = Array.from({ length: 12 }, () => ["2S", "2S", "2S", "2S", "2S", "2S", "2S", "2S"]);
  const game = new PracticeGame({ piles, reserve: ["3H", "3H", "4D", "4D", "5C", "5C", "JS", "QS"] });
  assert.equal(game.status, "blocked");
  piles[0][7] = "9H"; // 2 + 9
  assert.equal(new PracticeGame({ piles, reserve: ["3H", "3H", "4D", "4D", "5C", "5C", "JS", "QS"] }).status, "playing");
});
