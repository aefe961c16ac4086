// A ghost race's splits as the player reads and hears them: the gap in tenths of a second
// with its sign and its word, the times at each split, the page's decimal mark.

import assert from "node:assert/strict";
import { test } from "node:test";

import { moveText } from "../../frontend/js/announce.js";
import {
  formatGap,
  formatSplitTime,
  gapTenths,
  gapText,
  latestSplit,
  splitText,
  standing,
} from "../../frontend/js/splits.js";

const row = (removals, you, ghost) => ({
  removals,
  you_ms: you,
  ghost_ms: ghost,
  delta_ms: you === null || ghost === null ? null : you - ghost,
});

test("the gap is the difference of the two times as shown, each cut to its tenth", () => {
  assert.equal(gapTenths(row(8, 41_230, 43_010)), 412 - 430);
  assert.equal(gapTenths(row(8, 10_099, 10_000)), 0); // 10.0 s and 10.0 s on screen: level
  assert.equal(gapTenths(row(8, 10_100, 10_099)), 1);
  assert.equal(gapTenths(row(8, 5000, null)), null);
  assert.deepEqual([-1, 0, 3].map(standing), ["ahead", "level", "behind"]);
});

test("ahead reads minus, behind plus, with the word and the page's decimal mark", () => {
  assert.equal(formatGap(-15), "\u22121.5\u00a0s");
  assert.equal(formatGap(32), "+3.2\u00a0s");
  assert.equal(formatGap(0), "±0.0\u00a0s");
  assert.equal(formatGap(-1234), "\u2212123.4\u00a0s");
  assert.equal(formatGap(-15, "fr"), "\u22121,5\u00a0s");
  assert.equal(formatGap(32, "ro"), "+3,2\u00a0s");
  assert.equal(gapText(row(8, 41_230, 43_010)), "\u22121.8\u00a0s ahead");
  assert.equal(gapText(row(16, 90_000, 86_800)), "+3.2\u00a0s behind");
  assert.equal(gapText(row(24, 90_000, null)), "the ghost did not get this far");
});

test("a split's time is minutes, seconds and the tenth", () => {
  assert.deepEqual([0, 41_230, 83_450, 3_723_999].map(formatSplitTime), ["0:00.0", "0:41.2", "1:23.4", "1:02:03.9"]);
});

test("the move that makes a split says it once, in the same sentence", () => {
  const before = { slots: { P1: { top: "5S" }, P8: { top: "6D" } } };
  const moved = { kind: "move", slots: ["P1", "P8"], score: 80, moves: 8, status: "playing" };
  const split = row(8, 41_230, 43_010);
  assert.equal(splitText(split), "8 removals: \u22121.8\u00a0s ahead");
  assert.equal(
    moveText(before, { ...moved, split }),
    "5♠ and 6♦ removed — score 80, 8 moves. 8 removals: \u22121.8\u00a0s ahead",
  );
  assert.equal(moveText(before, moved), "5♠ and 6♦ removed — score 80, 8 moves");
});

test("after a reconnect the table's last split of the player's is the one shown", () => {
  const table = [row(8, 1000, 2000), row(16, 3000, 4000), row(24, null, 6000)];
  assert.equal(latestSplit(table).removals, 16);
  assert.equal(latestSplit([row(8, null, 2000)]), null);
  assert.equal(latestSplit([]), null);
});
