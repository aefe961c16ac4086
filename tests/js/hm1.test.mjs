// frontend/js/hm1.js deals exactly as game/engine/deals.py: every deal of
// tests/hm1_deals.json (written by tests/engine/test_hm1_fixture.py from the engine),
// and one digest over deals 0–9,999, so the offline practice game is the server's deal.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { dealFromCode, dealFromNumber, formatCode, parseCode, sha256Hex } from "../../frontend/js/hm1.js";

const fixture = JSON.parse(readFileSync(new URL("../hm1_deals.json", import.meta.url), "utf8"));
const CARDS = fixture.cards.split(" ");
const decode = (letters) => [...letters].map((letter) => CARDS[fixture.letters.indexOf(letter)]);
const flat = (deal) => [...deal.piles.flat(), ...deal.reserve];

test("SHA-256 gives the standard digests", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const long = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  assert.equal(sha256Hex(long), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
});

test(`the ${Object.keys(fixture.deals).length} deals of the fixture are the engine's`, () => {
  assert.ok(Object.keys(fixture.deals).length >= 2000);
  for (const [code, letters] of Object.entries(fixture.deals)) {
    const deal = dealFromCode(code);
    assert.equal(deal.code, code);
    assert.deepEqual(flat(deal), decode(letters), code);
    assert.equal(deal.piles.length, 12);
    assert.ok(deal.piles.every((pile) => pile.length === 8) && deal.reserve.length === 8, code);
  }
});

test(`deals 0 to ${fixture.sequential.count - 1} have the engine's digest`, () => {
  let text = "";
  for (let number = 0; number < fixture.sequential.count; number += 1) {
    text += `${flat(dealFromNumber(number)).join(" ")}\n`;
  }
  assert.equal(sha256Hex(text), fixture.sequential.sha256);
});

test("the rule book's worked example is deal HM1-N-AAAAAAB", () => {
  const deal = dealFromCode("hm1-n-aaaaaab");
  assert.deepEqual(deal.piles[0].slice(-2), ["7H", "5S"]);
  assert.deepEqual(deal.piles[7].slice(-2), ["JC", "6D"]);
});

test("codes parse as the engine parses them; anything else deals nothing", () => {
  assert.deepEqual(parseCode("HM1-N-AAAABA"), null);
  assert.deepEqual(parseCode("HM1-N-AAAAABA"), { kind: "N", number: 26 });
  assert.equal(formatCode(8031810175), "HM1-N-ZZZZZZZ");
  for (const bad of ["", "HM1-N-AAAAAAB ", "HM2-N-AAAAAAB", "HM1-X-AAAAAAB", "HM1-N-AAAAAA1", null, 7]) {
    assert.equal(dealFromCode(bad), null, String(bad));
  }
  assert.equal(dealFromCode("HM1-C-AAAAAAB"), null, "a custom deal is the server's");
});
