// The names the server stores for someone who chose none and for a deleted account's
// results read in the page's language; every other name as typed.
import assert from "node:assert/strict";
import { test } from "node:test";

const french = { Player: "Joueur", "deleted player": "joueur supprimé" };
globalThis.gettext = (msgid) => french[msgid] ?? msgid;
const { playerName } = await import("../../frontend/js/i18n.js");

test("the server's own names are translated, a player's as typed", () => {
  assert.equal(playerName("Player"), "Joueur");
  assert.equal(playerName("deleted player"), "joueur supprimé");
  assert.equal(playerName("ada"), "ada");
  assert.equal(playerName("Deleted Player"), "Deleted Player");
});
