"""What fits with what: the rule book's removals, on cards alone.

Shared by the engine (complete moves) and, through ``tests/rule_cases.json``,
by the browser client (taps), so both read the rule book the same way.
When cards do not fit, the *first* card chooses the message: a number card
asks for a sum of 11, a face card asks for a Jack, a Queen and a King.
"""

from .cards import FACE_VALUES, VALUE

FITS = "fits"
OPEN = "open"
SUM_NOT_11 = "sum_not_11"
NEEDS_JQK = "needs_jqk"
BAD_COUNT = "bad_count"

PAIR_POINTS, TRIO_POINTS = 10, 15


def move_error(cards):
    """``None`` when the cards are a legal removal, else the IllegalMove code."""
    if len(cards) == 2:
        first, second = VALUE[cards[0]], VALUE[cards[1]]
        if first > 10:
            return NEEDS_JQK
        return None if second <= 10 and first + second == 11 else SUM_NOT_11
    if len(cards) == 3:
        return None if {VALUE[card] for card in cards} == FACE_VALUES else NEEDS_JQK
    return BAD_COUNT


def judge(cards):
    """Verdict on a selection built tap by tap: ``fits``, ``open`` or an error code.

    ``open`` means the selection can still grow into a removal (one card, or
    face cards of different ranks short of a trio).
    """
    if len(cards) == 1:
        return OPEN
    if len(cards) > 3:
        return BAD_COUNT
    if VALUE[cards[0]] <= 10:
        return (move_error(cards) or FITS) if len(cards) == 2 else SUM_NOT_11
    values = {VALUE[card] for card in cards}
    if len(values) < len(cards) or not values <= FACE_VALUES:
        return NEEDS_JQK
    return FITS if len(cards) == 3 else OPEN


def points(cards):
    return PAIR_POINTS if len(cards) == 2 else TRIO_POINTS
