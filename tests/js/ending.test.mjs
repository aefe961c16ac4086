// Who may ask for a rematch (the server's rule in game/race/actions.py) and what the felt
// says once a game cannot go on.

import assert from "node:assert/strict";
import { test } from "node:test";

import { mayAskRematch, tableStatus } from "../../frontend/js/ending.js";

const player = (id, more = {}) => ({ id, host: false, connected: true, ...more });
const you = (id, more = {}) => ({ player: id, role: "player", host: false, ...more });

test("the host may ask for a rematch, a guest may not while the host is here", () => {
  const players = [player(1, { host: true }), player(2)];
  assert.equal(mayAskRematch(you(1, { host: true }), players), true);
  assert.equal(mayAskRematch(you(2), players), false);
});

test("any player may ask once the host is gone, or when there is no host (a quick race)", () => {
  assert.equal(mayAskRematch(you(2), [player(1, { host: true, connected: false }), player(2)]), true);
  assert.equal(mayAskRematch(you(2), [player(1), player(2)]), true);
});

test("a spectator never asks for a rematch unless they host", () => {
  const spectator = { player: null, role: "spectator", host: false };
  assert.equal(mayAskRematch(spectator, [player(1)]), false);
});

test("the felt says nothing while the player plays, and why it stopped afterwards", () => {
  const running = { status: "running", mode: "race" };
  const over = { status: "finished", mode: "quick" };
  assert.equal(tableStatus(running, "player", "playing"), "");
  assert.equal(tableStatus(running, "player", "blocked"), "No move left: undo, or give up.");
  assert.equal(tableStatus(over, "player", "abandoned"), "You were away too long: you are out of this race. The race is over.");
  assert.equal(tableStatus(over, "spectator", undefined), "The race is over.");
  assert.equal(tableStatus({ status: "finished", mode: "solo" }, "player", "won"), "You won!");
});
