// What fits with what, tap by tap: the browser's copy of game/engine/rules.py `judge`.
// Both are checked against tests/rule_cases.json (tests/js/rules.test.mjs in Node,
// tests/engine/test_rule_cases.py in Python), so they cannot drift apart.
// When cards do not fit, the FIRST card chooses the message: a number card asks
// for a sum of 11, a face card asks for a Jack, a Queen and a King.

import { value } from "./cards.js";

export const FITS = "fits";
export const OPEN = "open";
export const SUM_NOT_11 = "sum_not_11";
export const NEEDS_JQK = "needs_jqk";
export const BAD_COUNT = "bad_count";

/** Verdict on cards in tap order: fits, open (can still grow into a removal) or an error. */
export function judge(cards) {
  if (cards.length === 1) return OPEN;
  if (cards.length < 1 || cards.length > 3) return BAD_COUNT;
  const values = cards.map(value);
  if (values[0] <= 10) {
    return cards.length === 2 && values[1] <= 10 && values[0] + values[1] === 11 ? FITS : SUM_NOT_11;
  }
  const distinct = new Set(values);
  if (distinct.size < values.length || values.some((v) => v <= 10)) return NEEDS_JQK;
  return cards.length === 3 ? FITS : OPEN;
}

/** Whether `card` can go with the cards already selected (placement help). */
export function canJoin(selected, card) {
  const verdict = judge([...selected, card]);
  return verdict === FITS || verdict === OPEN;
}
