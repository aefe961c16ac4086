// Cards as the server names them: rank then suit letter ("5S", "10H", "QH").
// Mirrors game/engine/cards.py; the letters per language mirror scheme.card_label.

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const ROMANCE_FACES = { J: "V", Q: "D", K: "R" };
const FACE_LETTERS = { en: {}, fr: ROMANCE_FACES, ca: ROMANCE_FACES, ro: ROMANCE_FACES };

export const rank = (card) => card.slice(0, -1);
export const suit = (card) => card.slice(-1);

/** A=1 … 10=10, J=11, Q=12, K=13. */
export const value = (card) => RANKS.indexOf(rank(card)) + 1;
export const isFace = (card) => value(card) > 10;
export const isRed = (card) => suit(card) === "H" || suit(card) === "D";

/** The rank as the rule book of `lang` prints it: K in English, R in French. */
export function rankLabel(card, lang = "en") {
  const letters = FACE_LETTERS[lang] || FACE_LETTERS.en;
  return letters[rank(card)] || rank(card);
}

/** "K♥" in English, "R♥" in French, Catalan and Romanian. */
export const cardLabel = (card, lang = "en") => rankLabel(card, lang) + SUIT_SYMBOLS[suit(card)];
