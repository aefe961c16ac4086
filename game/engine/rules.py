"""What fits with what: the rule book's removals, stated once.

``PAIRS`` and ``TRIO`` are the rule on card values: two number cards summing
to 11, or a Jack, a Queen and a King, suits ignored. Everything else that
needs the rule imports it from here: the game (complete moves), the solver and
the casual player of ``difficulty`` (values only), and, through
``tests/rule_cases.json``, the browser client's copy in ``frontend/js/rules.js``
(taps), so all of them read the rule book the same way.

When cards do not fit, the *first* card chooses the message: a number card
asks for a sum of 11, a face card asks for a Jack, a Queen and a King.
"""

from .cards import JACK, KING, QUEEN, VALUE

FITS = "fits"
OPEN = "open"
SUM_NOT_11 = "sum_not_11"
NEEDS_JQK = "needs_jqk"
BAD_COUNT = "bad_count"

PAIR_SUM = 11
PAIRS = tuple((low, PAIR_SUM - low) for low in range(1, (PAIR_SUM + 1) // 2))
"""The values that pair, low first: A+10, 2+9, 3+8, 4+7, 5+6."""
TRIO = (JACK, QUEEN, KING)
"""The values that make a trio, one of each."""
REMOVALS = frozenset(PAIRS) | {TRIO}
"""Every removal as its card values in ascending order."""

PAIR_POINTS, TRIO_POINTS = 10, 15


def move_error(cards):
    """``None`` when the cards are a legal removal, else the IllegalMove code."""
    if tuple(sorted([VALUE[card] for card in cards])) in REMOVALS:
        return None
    if len(cards) not in (2, 3):
        return BAD_COUNT
    return NEEDS_JQK if len(cards) == 3 or VALUE[cards[0]] in TRIO else SUM_NOT_11


def judge(cards):
    """Verdict on a selection built tap by tap: ``fits``, ``open`` or an error code.

    ``open`` means the selection can still grow into a removal (one card, or
    face cards of different ranks short of a trio). No card at all is no
    selection: ``bad_count``, as for a move of no card.
    """
    if move_error(cards) is None:
        return FITS
    values = {VALUE[card] for card in cards}
    if cards and len(values) == len(cards) and any(values < set(r) for r in REMOVALS):
        return OPEN
    if len(cards) not in (2, 3):
        return BAD_COUNT
    return NEEDS_JQK if VALUE[cards[0]] in TRIO else SUM_NOT_11
