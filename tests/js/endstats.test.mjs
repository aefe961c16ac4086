// What a finished daily's dialog says of its rank: the rank, or where it would rank
// and why it is not ranked (a guest, an account on the guests' deal, held for review).

import assert from "node:assert/strict";
import { test } from "node:test";

import { rankText } from "../../frontend/js/endstats.js";

const row = (more) => ({ rank: 3, ranked: false, guests: false, flagged: false, disqualified: false, ...more });

test("a ranked result says its rank", () => {
  assert.equal(rankText(row({ ranked: true })), "Your rank today: #3.");
});

test("a guest's result says where it would rank among guests, and why it is not ranked", () => {
  const text = rankText(row({ guests: true }));
  assert.match(text, /^Not ranked: you would rank #3 among guests\. Guests play a deal of their own/);
});

test("an account on the guests' deal says the page's reason (too new to rank)", () => {
  const why = "Not ranked: an account ranks once it is 24 hours old.";
  assert.match(rankText(row({ guests: true }), why), /among guests\. Not ranked: an account ranks once/);
});

test("a result held for review says so, and where it would rank", () => {
  assert.match(rankText(row({ flagged: true })), /would rank #3\. The fair-play checks flagged it, and it waits for staff/);
  assert.match(rankText(row({ disqualified: true })), /would rank #3\. Staff disqualified it\./);
});
