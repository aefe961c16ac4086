// frontend/js/selection.js follows the rule book's taps on every shared tap case.

import assert from "node:assert/strict";
import { test } from "node:test";

import { stillOnTop, tap } from "../../frontend/js/selection.js";
import { TAP_CASES } from "./cases.mjs";

for (const { name, taps, selected, move, error } of TAP_CASES) {
  test(name, () => {
    let state = { selected: [] };
    for (const pick of taps) state = tap(state.selected, pick);
    assert.deepEqual(
      { selected: state.selected.map((s) => s.slot), move: state.move, error: state.error },
      { selected, move, error },
    );
  });
}

test("a state that leaves the selected cards on top keeps them selected", () => {
  const selected = tap([], { slot: "P1", card: "5S" }).selected;
  const same = { slots: { P1: { top: "5S", count: 8 } } };
  assert.deepEqual(stillOnTop(selected, same), selected);
});

test("a state that took a selected card away drops it from the selection", () => {
  const selected = [
    { slot: "P3", card: "KH" },
    { slot: "P5", card: "QH" },
  ];
  const changed = { slots: { P3: { top: "KH", count: 8 }, P5: { top: "9C", count: 7 } } };
  assert.deepEqual(stillOnTop(selected, changed), [{ slot: "P3", card: "KH" }]);
});
