"""Cards and slots of Half Moon.

A card is a plain string, rank then suit letter: ``"5S"``, ``"10H"``, ``"JC"``.
Plain strings keep the engine fast and make positions trivially serialisable;
every public entry point canonicalises input through :func:`parse_card`.
"""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

JACK, QUEEN, KING = 11, 12, 13

ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
VALUE = {card: RANKS.index(card[:-1]) + 1 for card in ALL_CARDS}
"""A=1 … 10=10, J=11, Q=12, K=13: a number card's value is its rank."""

PILE_SLOTS = tuple(f"P{n}" for n in range(1, 13))
RESERVE_SLOTS = tuple(f"R{n}" for n in range(1, 9))
SLOTS = PILE_SLOTS + RESERVE_SLOTS
SLOT_INDEX = {slot: index for index, slot in enumerate(SLOTS)}
PILE_COUNT, RESERVE_COUNT, PILE_HEIGHT = 12, 8, 8


class BadCard(ValueError):
    """A string that does not name a card."""


def parse_card(text):
    """Return the canonical form of a card name; ``T`` is accepted for 10."""
    if not isinstance(text, str) or not 2 <= len(text) <= 3:
        raise BadCard(f"not a card: {text!r} (expected rank + suit, like 5S or 10H)")
    card = text.strip().upper()
    if card[:-1] == "T":
        card = "10" + card[-1]
    if card not in VALUE:
        raise BadCard(f"not a card: {text!r} (ranks A 2-10 J Q K, suits S H D C)")
    return card


def pretty(card):
    """``"10H"`` -> ``"10♥"``, the form the rule book prints."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]
