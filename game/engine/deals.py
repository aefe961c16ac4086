"""Deals and deal codes.

``HM1-N-`` + 7 letters is a numbered deal: the letters are a base-26 number
(``A`` = 0) fed to the HM1 shuffle below. The shuffle is written out here in
full, with no dependence on Python's ``random``, so a code names the same deal
forever; ``docs/deals.md`` specifies it and the tests pin it with vectors.
``HM1-C-`` + 7 letters names a custom deal entered by staff: its layout lives
in the server's database, not in the code.
"""

import hashlib
import re
from collections import Counter

from .cards import ALL_CARDS, PILE_COUNT, PILE_HEIGHT, RESERVE_COUNT, parse_card

CODE_LETTERS = 7
MAX_NUMBER = 26**CODE_LETTERS - 1
_CODE_RE = re.compile(r"HM1-([NC])-([A-Z]{7})")
_SHUFFLE_SALT = b"HM1-N"

# The 104 cards the HM1 shuffle permutes. Its order was fixed once, when HM1
# was pinned, so that deal HM1-N-AAAAAAB is the rule book's worked example.
REFERENCE_DECK = tuple(
    """
    AH 6C 3H 3C 10H 7S 6S 4C 6D 9H 10C QC AH
    7S 8C 2S QS KC 7D JC 9S 2C 8C JD 7H 8S
    4D KH JD 5H 4S KS KS 5S KD 2S 8H 10D 4C
    2H KC JS 10S 9D 9C 8D 6C 10D 6H 4S AC 5D
    AS 7C 3D AD 8S 2D JH 7D AC 3H 6H 3S 5H
    JS AS AD 4H 9D KD 2D 10C 8D 9H 5D 10S 10H
    2H QD 4H QC QD QH 3D 7H 6D 2C 8H 7C QH
    KH 3S 5S 9C 4D QS JH 5C 5C 3C 9S JC 6S
    """.split()  # noqa: SIM905
)


class BadDealCode(ValueError):
    """A string that is not a deal code."""


class BadLayout(ValueError):
    """Piles and reserve that do not make a Half Moon deal."""


def parse_code(code):
    """``"hm1-n-aaaaaab"`` -> ``("N", 1)``; a clear :class:`BadDealCode` otherwise."""
    if not isinstance(code, str):
        raise BadDealCode(f"a deal code is text, not {type(code).__name__}")
    match = _CODE_RE.fullmatch(code.upper()) if len(code) <= 32 else None
    if match is None:
        shown = code if len(code) <= 20 else code[:20] + "…"
        raise BadDealCode(
            f"not a deal code: {shown!r} (expected HM1-N- and 7 letters A-Z, like HM1-N-AAAAAAB)"
        )
    number = 0
    for letter in match.group(2):
        number = number * 26 + ord(letter) - 65
    return match.group(1), number


def format_code(number, kind="N"):
    if not 0 <= number <= MAX_NUMBER:
        raise BadDealCode(f"deal number out of range 0..{MAX_NUMBER}: {number}")
    letters = []
    for _ in range(CODE_LETTERS):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return f"HM1-{kind}-{''.join(reversed(letters))}"


def _random_words(number):
    """Endless 32-bit words: SHA-256 of salt, number and block counter."""
    block = 0
    while True:
        digest = hashlib.sha256(b"%s:%d:%d" % (_SHUFFLE_SALT, number, block)).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(digest[offset : offset + 4], "big")
        block += 1


def shuffle_order(number):
    """The HM1 permutation of positions 0..103 for a deal number.

    Fisher-Yates from the last position down; each swap index is drawn
    without modulo bias by rejecting words at or above the largest multiple
    of the range that fits in 32 bits.
    """
    order = list(range(len(REFERENCE_DECK)))
    words = _random_words(number)
    for top in range(len(order) - 1, 0, -1):
        span = top + 1
        limit = 2**32 - 2**32 % span
        word = next(words)
        while word >= limit:
            word = next(words)
        pick = word % span
        order[top], order[pick] = order[pick], order[top]
    return order


class Deal:
    """A starting layout: 12 piles of 8 (bottom -> top) and 8 reserve cards."""

    __slots__ = ("code", "piles", "reserve")

    def __init__(self, piles, reserve, code=None):
        self.piles = piles
        self.reserve = reserve
        self.code = code

    @classmethod
    def from_code(cls, code):
        kind, number = parse_code(code)
        if kind == "C":
            raise BadDealCode(
                f"{code.upper()} is a custom deal: only the server that stores it can lay it out"
            )
        return cls.from_number(number)

    @classmethod
    def from_number(cls, number):
        code = format_code(number)
        cards = [REFERENCE_DECK[position] for position in shuffle_order(number)]
        return cls._from_cards(cards, code)

    @classmethod
    def _from_cards(cls, cards, code):
        dealt = PILE_COUNT * PILE_HEIGHT
        piles = tuple(
            tuple(cards[start : start + PILE_HEIGHT]) for start in range(0, dealt, PILE_HEIGHT)
        )
        return cls(piles, tuple(cards[dealt:]), code)

    @classmethod
    def from_layout(cls, piles, reserve, code=None):
        """Validate a hand-made layout: 12 piles of 8, 8 reserve cards, each card twice."""
        try:
            piles = tuple(tuple(parse_card(card) for card in pile) for pile in piles)
            reserve = tuple(parse_card(card) for card in reserve)
        except TypeError as exc:
            raise BadLayout(f"piles and reserve must be lists of card names ({exc})") from None
        if len(piles) != PILE_COUNT or any(len(pile) != PILE_HEIGHT for pile in piles):
            raise BadLayout(f"a deal has {PILE_COUNT} piles of {PILE_HEIGHT} cards")
        if len(reserve) != RESERVE_COUNT:
            raise BadLayout(f"a deal has {RESERVE_COUNT} reserve cards")
        counts = Counter(card for pile in piles for card in pile) + Counter(reserve)
        wrong = sorted(card for card in ALL_CARDS if counts[card] != 2)
        if wrong:
            detail = ", ".join(f"{card}×{counts[card]}" for card in wrong[:6])
            raise BadLayout(f"every card must appear exactly twice; not so for {detail}")
        return cls(piles, reserve, code)

    def to_layout(self):
        """JSON-ready layout, the inverse of :meth:`from_layout`."""
        return {"piles": [list(pile) for pile in self.piles], "reserve": list(self.reserve)}

    def __eq__(self, other):
        return (
            isinstance(other, Deal) and self.piles == other.piles and self.reserve == other.reserve
        )

    def __hash__(self):
        return hash((self.piles, self.reserve))

    def __repr__(self):
        return f"<Deal {self.code or 'custom'}>"
