// The ghost of a ghost race: where its recorded game stands on its own clock, and
// which piles its last move took from.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Ghost } from "../../frontend/js/ghost.js";

const DEALT = [...Array(12).fill(8), ...Array(8).fill(1)];
const AFTER_P1_P8 = DEALT.map((count, i) => (i === 0 || i === 7 ? count - 1 : count));
const recorded = (heights) => ({
  of: "leader",
  name: "ada",
  points: [
    [0, 0, 0, 104, heights ? DEALT : null, "playing"],
    [2000, 10, 1, 102, heights ? AFTER_P1_P8 : null, "playing"],
    [5000, 520, 48, 0, heights ? Array(20).fill(0) : null, "won"],
  ],
});

test("the ghost stands at the last point its clock has reached", () => {
  const ghost = new Ghost(recorded(true));
  assert.deepEqual([0, 1999, 2000, 4999, 5000, 60000].map((ms) => ghost.player(ms).score), [0, 0, 10, 10, 520, 520]);
  assert.equal(ghost.player(60000).status, "won");
  assert.equal(ghost.name, "Ghost of ada");
});

test("the ghost moves once per point, flashing the piles its move took from", () => {
  const ghost = new Ghost(recorded(true));
  assert.deepEqual(ghost.moved(0).slots, []);
  assert.equal(ghost.moved(1000), null);
  assert.deepEqual(ghost.moved(2500).slots, ["P1", "P8"]);
  assert.equal(ghost.moved(3000), null);
});

test("a ghost whose heights are secret moves without them", () => {
  const ghost = new Ghost({ ...recorded(false), of: "best" });
  assert.equal(ghost.moved(2500).heights, null);
  assert.equal(ghost.name, "Your best");
});
