// When the race socket tries again (net.js): at once, within a second's jitter, after a
// server process closed it for a restart (1012); with the growing backoff after anything
// else (a network drop, an outage), so a dead server is not hammered.

import assert from "node:assert/strict";
import { test } from "node:test";

import { RESTART, RESTART_JITTER_MS, retryDelay } from "../../frontend/js/net.js";

test("a restart's close is followed at once, spread over the jitter", () => {
  assert.equal(RESTART, 1012);
  assert.equal(retryDelay(RESTART, 0, () => 0), 0);
  assert.equal(retryDelay(RESTART, 5, () => 0.5), RESTART_JITTER_MS / 2);
  assert.ok(retryDelay(RESTART, 3, () => 0.9999) < RESTART_JITTER_MS);
});

test("any other close backs off, longer each time, up to ten seconds", () => {
  const delays = [0, 1, 2, 3, 4, 5, 9].map((attempt) => retryDelay(1006, attempt));
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
  assert.equal(retryDelay(4503, 0), 500);
});
