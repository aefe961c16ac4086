// The rule book's taps ("Toucher les cartes"), as a pure function of the selection.
//
// tap(selected, pick) -> { selected, move, error }
//   selected: the picks now selected ({slot, card}, in tap order)
//   move:     the slots to send as one whole move, or null
//   error:    sum_not_11 / needs_jqk when the tap did not fit, else null
// tests/tap_cases.json holds the rule book's tap sequences (tests/js/selection.test.mjs).

import { isFace } from "./cards.js";
import { FITS, OPEN, judge } from "./rules.js";

export function tap(selected, pick) {
  if (selected.some((s) => s.slot === pick.slot)) {
    // Tapping a selected card again deselects it.
    return { selected: selected.filter((s) => s.slot !== pick.slot), move: null, error: null };
  }
  const picks = [...selected, pick];
  const verdict = judge(picks.map((p) => p.card));
  if (verdict === FITS) return { selected: [], move: picks.map((p) => p.slot), error: null };
  if (verdict === OPEN) return { selected: picks, move: null, error: null };
  // Face cards that do not add up (same rank): the new one becomes the selected card.
  // Anything else that does not fit clears the selection.
  const keepNew = isFace(pick.card) && selected.every((s) => isFace(s.card));
  return { selected: keepNew ? [pick] : [], move: null, error: verdict };
}

/** The picks still on top of their slots in `board`: a `state` that changed nothing under
 * them (a resync, a reconnect) keeps the selection, so a tap between two states counts. */
export function stillOnTop(selected, board) {
  return selected.filter((s) => board.slots[s.slot]?.top === s.card);
}
