// frontend/js/selection.js follows the rule book's taps on every shared tap case.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tap } from "../../frontend/js/selection.js";
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
