// The HM1 shuffle in the browser: a numbered deal code laid out exactly as
// game/engine/deals.py does (docs/deals.md is the specification), so the offline
// practice game deals the server's board. SHA-256 is written out here because the
// shuffle needs it synchronously and crypto.subtle is async and missing on plain
// http. tests/js/hm1.test.mjs holds it to the Python deals of tests/hm1_deals.json.

const LETTERS = 7;
export const MAX_NUMBER = 26 ** LETTERS - 1;
const CODE = /^HM1-([NC])-([A-Z]{7})$/;

// game/engine/deals.py REFERENCE_DECK, the 104 cards the shuffle permutes.
export const REFERENCE_DECK = `
  AH 6C 3H 3C 10H 7S 6S 4C 6D 9H 10C QC AH 7S 8C 2S QS KC 7D JC 9S 2C 8C JD 7H 8S
  4D KH JD 5H 4S KS KS 5S KD 2S 8H 10D 4C 2H KC JS 10S 9D 9C 8D 6C 10D 6H 4S AC 5D
  AS 7C 3D AD 8S 2D JH 7D AC 3H 6H 3S 5H JS AS AD 4H 9D KD 2D 10C 8D 9H 5D 10S 10H
  2H QD 4H QC QD QH 3D 7H 6D 2C 8H 7C QH KH 3S 5S 9C 4D QS JH 5C 5C 3C 9S JC 6S
`.trim().split(/\s+/);

/** "hm1-n-aaaaaab" -> {kind: "N", number: 1}; null when it is not a deal code. */
export function parseCode(code) {
  const match = typeof code === "string" && code.length <= 32 ? CODE.exec(code.toUpperCase()) : null;
  if (!match) return null;
  let number = 0;
  for (const letter of match[2]) number = number * 26 + letter.charCodeAt(0) - 65;
  return { kind: match[1], number };
}

export function formatCode(number, kind = "N") {
  const letters = [];
  for (let i = 0; i < LETTERS; i += 1) {
    letters.unshift(String.fromCharCode(65 + (number % 26)));
    number = Math.floor(number / 26);
  }
  return `HM1-${kind}-${letters.join("")}`;
}

// ---- SHA-256 (FIPS 180-4) over bytes -----------------------------------------

const K = Uint32Array.from(
  "428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2"
    .split(" ")
    .map((word) => parseInt(word, 16)),
);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const rotr = (x, n) => (x >>> n) | (x << (32 - n));

function compress(hash, w) {
  for (let t = 16; t < 64; t += 1) {
    const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
    const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = hash;
  for (let t = 0; t < 64; t += 1) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  [a, b, c, d, e, f, g, h].forEach((value, i) => (hash[i] = (hash[i] + value) | 0));
}

/** The digest of `bytes` (a Uint8Array) as eight unsigned 32-bit big-endian words. */
export function sha256Words(bytes) {
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.length * 8;
  view.setUint32(length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(length - 4, bits >>> 0);
  const hash = [...INITIAL];
  const w = new Int32Array(64);
  for (let offset = 0; offset < length; offset += 64) {
    for (let t = 0; t < 16; t += 1) w[t] = view.getInt32(offset + 4 * t);
    compress(hash, w);
  }
  return hash.map((word) => word >>> 0);
}

/** The hex digest of a text's UTF-8 bytes. */
export const sha256Hex = (text) =>
  sha256Words(new TextEncoder().encode(text))
    .map((word) => word.toString(16).padStart(8, "0"))
    .join("");

// ---- the shuffle ---------------------------------------------------------------

/** Endless 32-bit words: SHA-256 of "HM1-N:{number}:{block}", block 0, 1, 2, … */
function* randomWords(number) {
  const encoder = new TextEncoder();
  for (let block = 0; ; block += 1) yield* sha256Words(encoder.encode(`HM1-N:${number}:${block}`));
}

/** The HM1 permutation of positions 0..103: Fisher–Yates from the top, no modulo bias. */
export function shuffleOrder(number) {
  const order = REFERENCE_DECK.map((_, i) => i);
  const words = randomWords(number);
  for (let top = order.length - 1; top > 0; top -= 1) {
    const span = top + 1;
    const limit = 2 ** 32 - (2 ** 32 % span);
    let word = words.next().value;
    while (word >= limit) word = words.next().value;
    const pick = word % span;
    [order[top], order[pick]] = [order[pick], order[top]];
  }
  return order;
}

/** A numbered deal's layout: 12 piles of 8 (bottom -> top) and the 8 reserve cards. */
export function dealFromNumber(number) {
  const cards = shuffleOrder(number).map((position) => REFERENCE_DECK[position]);
  const piles = Array.from({ length: 12 }, (_, i) => cards.slice(8 * i, 8 * i + 8));
  return { code: formatCode(number), piles, reserve: cards.slice(96) };
}

/** The layout a code names, or null: not a code, or a custom deal only its server knows. */
export function dealFromCode(code) {
  const parsed = parseCode(code);
  return parsed && parsed.kind === "N" ? dealFromNumber(parsed.number) : null;
}
