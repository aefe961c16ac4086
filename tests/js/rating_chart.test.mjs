// The rating chart's geometry and the change's sign, as the profile and the end dialog show them.

import assert from "node:assert/strict";
import { test } from "node:test";

import { dotTitle, ratingPoints } from "../../frontend/js/rating_chart.js";
import { ratingText, signed } from "../../frontend/js/ratings.js";

test("a rising history goes up from left to right inside the box", () => {
  const { points, low, high } = ratingPoints([{ rating: 1500 }, { rating: 1560 }, { rating: 1620 }], 400, 120);
  assert.deepEqual(points.map(([x]) => x), [10, 200, 390]);
  assert.ok(points[0][1] > points[1][1] && points[1][1] > points[2][1]);
  assert.equal(points[0][1], 110);
  assert.equal(points[2][1], 10);
  assert.deepEqual([low, high], [1500, 1620]);
});

test("a flat or single history is a line across the middle, 100 points tall", () => {
  const { points, low, high } = ratingPoints([{ rating: 1500 }], 400, 120);
  assert.deepEqual(points, [[200, 60]]);
  assert.deepEqual([low, high], [1450, 1550]);
});

test("a change reads +12, −9 or ±0", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(-9), "\u22129");
  assert.equal(signed(0), "\u00b10");
});

test("a standings line reads its new rating and change, or that staff review it", () => {
  assert.equal(ratingText({ rating: 1512, change: 12, provisional: true }), "1512? (+12)");
  assert.equal(ratingText({ rating: 1640, change: -9, provisional: false }), "1640 (\u22129)");
  assert.equal(ratingText({ pending: true }), "awaiting review");
  assert.equal(ratingText(undefined), "—");
});

test("a rated race that was no game says why its rating did not move", () => {
  const line = { rating: 1500, change: 0, provisional: true, counted: false };
  assert.equal(ratingText({ ...line, unrated: "left_early" }), "1500? (not rated: given up before ten moves)");
  assert.equal(ratingText({ ...line, unrated: "too_short" }), "1500? (not rated: the race lasted seconds)");
  assert.equal(ratingText(line), "1500? (\u00b10)");
});

test("a dot says its rating and change, and a rated event's dot its title", () => {
  assert.equal(dotTitle({ rating: 1512, change: 12, provisional: true, event: null }), "1512? (+12)");
  const event = { id: 7, title: "Saturday arena" };
  assert.equal(dotTitle({ rating: 1490, change: -10, provisional: false, event }), "Event: Saturday arena · 1490 (\u221210)");
});
