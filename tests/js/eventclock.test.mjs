import assert from "node:assert/strict";
import { test } from "node:test";

import { countdownText } from "../../frontend/js/eventclock.js";

test("a countdown shows minutes and seconds, and hours once there are some", () => {
  assert.equal(countdownText(65_000), "1:05");
  assert.equal(countdownText(3_725_000), "1:02:05");
});

test("a countdown rounds up to the next second and never goes below zero", () => {
  assert.equal(countdownText(59_001), "1:00");
  assert.equal(countdownText(-5_000), "0:00");
});
