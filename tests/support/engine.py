from collections import Counter

import pytest

from game.engine import Deal, Game
from game.engine.cards import ALL_CARDS


@pytest.fixture
def rule_book_deal():
    """HM1-N-AAAAAAB: the deal of the rule book's worked example."""
    return Deal.from_code("HM1-N-AAAAAAB")


@pytest.fixture
def example_layout():
    """The rule book's example position, built by hand from its scheme.

    Piles show the rule book's top cards; pile 1 hides 7♥ under 5♠ and pile 8
    hides J♣ under 6♦. The hidden rest is filled so each card appears twice.
    """
    return Deal.from_layout(EXAMPLE_PILES, EXAMPLE_RESERVE)


EXAMPLE_RESERVE = ["10H", "6S", "3D", "4S", "7D", "5S", "JH", "AC"]
EXAMPLE_PILES = [
    ["AS", "2S", "3S", "4H", "6H", "8H", "7H", "5S"],
    ["AS", "2S", "3S", "AH", "QH", "8H", "9H", "AH"],
    ["2H", "3H", "4D", "6C", "8D", "9C", "10S", "KH"],
    ["2H", "3H", "7C", "8S", "9D", "10S", "JS", "4C"],
    ["2C", "3C", "5D", "7C", "8S", "9D", "JS", "QH"],
    ["2C", "3C", "5D", "6C", "8D", "9C", "9H", "5H"],
    ["AD", "4D", "6D", "8C", "10H", "JD", "QS", "7S"],
    ["AD", "5C", "8C", "9S", "JD", "QS", "JC", "6D"],
    ["2D", "4H", "5C", "9S", "10C", "JC", "QC", "10D"],
    ["3D", "6H", "7D", "10D", "KS", "QC", "QD", "10C"],
    ["4C", "6S", "7H", "7S", "KS", "KC", "QD", "2D"],
    ["AC", "4S", "5H", "KC", "KD", "KD", "JH", "KH"],
]


def layout_with_tops(tops, reserve):
    """A valid deal whose piles end with ``tops`` (lists, top last); the rest beneath.

    The hidden cards are dealt in rank order, so the layout is the same every run.
    """
    rest = Counter(dict.fromkeys(ALL_CARDS, 2))
    rest.subtract(Counter(card for pile in tops for card in pile) + Counter(reserve))
    beneath = sorted(rest.elements(), key=ALL_CARDS.index)
    piles = []
    for pile in tops:
        depth = 8 - len(pile)
        piles.append(beneath[:depth] + list(pile))
        beneath = beneath[depth:]
    return Deal.from_layout(piles, reserve)


BLOCKING_TOPS = [
    ["JS", "6S"],
    ["2S", "5S"],
    ["3S"],
    ["3H"],
    ["3D"],
    ["3C"],
    ["4S"],
    ["4H"],
    ["4D"],
    ["4C"],
    ["QS"],
    ["QH"],
]
BLOCKING_RESERVE = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C"]


@pytest.fixture
def blocking_deal():
    """One pair to play (5♠ on pile 2, 6♠ on pile 1), then blocked.

    Everything visible is A-5 or a Queen, so 6♠ is the only partner of 5♠;
    under them lie J♠ and 2♠, which make no pair and, with no King, no trio.
    """
    return layout_with_tops(BLOCKING_TOPS, BLOCKING_RESERVE)


def first_moves_until_blocked(deal):
    """Always the first legal move, until none is left: on the rule book's deal a line
    of 26 moves into a dead end, winnable for its first 20 moves and lost by the 21st
    (the after-game analysis tests)."""
    game = Game(deal)
    while game.legal_moves():
        game.remove(game.legal_moves()[0])
    return [list(move) for move in game.history]
