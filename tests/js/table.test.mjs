// The table's two layouts are the rule book's arc: 3 piles on the left, 7 on top,
// 2 on the right under the corner, the reserve two rows of four in the middle,
// half a column clear of the side piles (the browser's geometry: tests/web/test_arc.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { SLOTS } from "../../frontend/js/board.js";
import { NARROW, WIDE, fitFelt, gridArea } from "../../frontend/js/table.js";

/** A slot's place in columns (a track is half a column): row, left edge, right edge. */
function place(slot, layout) {
  const { row, column } = gridArea(slot, layout);
  const first = Number(column.split(" / ")[0]);
  return { row, left: (first - 1) / 2, right: (first + 1) / 2 };
}

for (const [name, layout] of Object.entries({ WIDE, NARROW })) {
  const at = (slot) => place(slot, layout);

  test(`${name}: every slot has one place, and no two overlap`, () => {
    const seen = SLOTS.map(at);
    for (const [i, a] of seen.entries()) {
      for (const b of seen.slice(i + 1)) {
        assert.ok(a.row !== b.row || a.right <= b.left || b.right <= a.left, `${SLOTS[i]} overlaps`);
      }
    }
  });

  test(`${name}: 3 piles left, 7 on top, 2 right under the corner`, () => {
    const top = ["P4", "P5", "P6", "P7", "P8", "P9", "P10"].map(at);
    assert.ok(top.every((p, i) => p.row === 1 && (i === 0 || p.left === top[i - 1].right)));
    assert.deepEqual(["P3", "P2", "P1"].map((s) => at(s).row), [2, 3, 4]);
    assert.deepEqual(["P11", "P12"].map((s) => at(s).row), [2, 3]);
    assert.ok(["P3", "P2", "P1"].every((s) => at(s).left === 0 && at(s).left <= top[0].left));
    assert.ok(["P11", "P12"].every((s) => at(s).left === at("P11").left && at(s).left >= top[6].left));
  });

  test(`${name}: the reserve, two rows of four in the arc's middle, clear of the piles`, () => {
    const rows = [["R1", "R2", "R3", "R4"], ["R5", "R6", "R7", "R8"]].map((row) => row.map(at));
    assert.ok(rows[0].every((r) => r.row === 3) && rows[1].every((r) => r.row === 4));
    assert.deepEqual(rows[0].map((r) => r.left), rows[1].map((r) => r.left));
    const left = rows[0][0].left;
    const right = rows[0][3].right;
    assert.ok(left - at("P2").right >= 0.5, "clear of the left piles");
    assert.ok(at("P12").left - right >= 0.5, "clear of the right piles");
    assert.equal((left + right) / 2, (at("P4").left + at("P10").right) / 2, "under the top row's middle");
  });
}

/** A felt as fitFelt sees it: its style's properties and its classes. */
function fakeFelt() {
  const props = {};
  const classes = new Set();
  return {
    props,
    classes,
    style: { setProperty: (name, value) => (props[name] = value) },
    classList: { toggle: (name, on) => (on ? classes.add(name) : classes.delete(name)) },
  };
}

test("fitFelt gives the stylesheet the felt's size in px", () => {
  const felt = fakeFelt();
  fitFelt(felt, 1200.5, 700);
  assert.deepEqual(felt.props, { "--felt-w": "1200.5px", "--felt-h": "700px" });
});

test("fitFelt picks seven columns up to 1.41 times as wide as tall, 1.48 from 760 px tall", () => {
  const narrow = (width, height) => {
    const felt = fakeFelt();
    fitFelt(felt, width, height);
    return felt.classes.has("narrow");
  };
  assert.equal(narrow(390, 600), true); // a phone held upright
  assert.equal(narrow(987, 700), true); // 1.41
  assert.equal(narrow(1001, 700), false); // 1.43, short
  assert.equal(narrow(1430, 1000), true); // 1.43, tall
  assert.equal(narrow(1120, 760), true); // 1.47, tall
  assert.equal(narrow(1110, 750), false); // 1.48, short
  assert.equal(narrow(1366, 600), false); // a laptop
  assert.equal(narrow(800, 0), false); // not laid out yet
});
