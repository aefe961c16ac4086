// frontend/js/rules.js gives the engine's verdict on every shared rule case.

import assert from "node:assert/strict";
import { test } from "node:test";

import { FITS, OPEN, canJoin, judge } from "../../frontend/js/rules.js";
import { RULE_CASES } from "./cases.mjs";

const named = (cards) => cards.join(" ") || "no card";

test("there are rule cases for every verdict", () => {
  const verdicts = new Set(RULE_CASES.map((c) => c.verdict));
  assert.deepEqual([...verdicts].sort(), ["bad_count", "fits", "needs_jqk", "open", "sum_not_11"]);
});

for (const { cards, verdict, why } of RULE_CASES) {
  test(`${named(cards)} is ${verdict}: ${why}`, () => {
    assert.equal(judge(cards), verdict);
  });
}

// Placement help dims a card unless it fits with the selection or keeps it open.
for (const { cards, verdict } of RULE_CASES.filter((c) => c.cards.length >= 2)) {
  const selected = cards.slice(0, -1);
  const card = cards.at(-1);
  const joins = verdict === FITS || verdict === OPEN;
  test(`${card} ${joins ? "can" : "cannot"} join ${named(selected)}`, () => {
    assert.equal(canJoin(selected, card), joins);
  });
}
