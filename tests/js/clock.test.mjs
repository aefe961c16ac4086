// A timed game's warnings before its end (clock.js): five minutes left, then one, each
// once; nothing for a game with time to spare, and nothing once the time is up.

import assert from "node:assert/strict";
import { test } from "node:test";

import { dueWarning, formatDuration } from "../../frontend/js/clock.js";

const MINUTE = 60_000;

test("no warning while more than five minutes are left", () => {
  assert.equal(dueWarning(14 * MINUTE), null);
  assert.equal(dueWarning(5 * MINUTE + 1), null);
});

test("five minutes left, then one minute, each given once", () => {
  assert.equal(dueWarning(5 * MINUTE), 5 * MINUTE);
  assert.equal(dueWarning(4 * MINUTE, 5 * MINUTE), null);
  assert.equal(dueWarning(MINUTE - 1, 5 * MINUTE), MINUTE);
  assert.equal(dueWarning(30_000, MINUTE), null);
});

test("a page opened with 40 seconds left warns once, with the one-minute warning", () => {
  assert.equal(dueWarning(40_000), MINUTE);
  assert.equal(dueWarning(39_000, MINUTE), null);
});

test("nothing once the time is up: the server says the game is over", () => {
  assert.equal(dueWarning(0), null);
  assert.equal(dueWarning(-5000), null);
});

test("durations read as the clock shows them", () => {
  assert.equal(formatDuration(83_000), "1:23");
  assert.equal(formatDuration(3_723_000), "1:02:03");
  assert.equal(formatDuration(-1), "0:00");
});
