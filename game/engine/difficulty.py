"""How hard a deal feels: how often a casual player wins it.

The casual player plays legal moves at random, with one habit every player
picks up in the first games: keep the reserve for when it is needed. Among
the legal moves it takes one of those that use the fewest lone cards (reserve
cards, or last cards of piles), any of them alike. ``PLAYOUTS`` such games,
seeded by the deal's cards, give the share of games won. The difficulty
counts how many halvings of the share it takes to get there, on a scale where
0 is a deal every casual game wins and 1 one that at most one game in
``PLAYOUTS`` wins: log(1/share) / log(PLAYOUTS), capped at 1. A label names
the band (docs/solver.md, "Difficulty").

Only meaningful for a winnable deal: the solver says whether one is.
"""

import math
import random
from typing import NamedTuple

from .cards import SLOTS, VALUE
from .game import Game
from .rules import PAIRS, TRIO
from .solver.board import Board

PLAYOUTS = 400

LABELS = (
    (0.40, "easy"),
    (0.65, "medium"),
    (0.95, "hard"),
)
"""Upper bounds of the bands. A casual player wins an easy deal more than once in
11 games, a medium one more than once in 50, a hard one more than once in 300;
a very hard deal once in 400 at most."""
VERY_HARD = "very hard"


class Difficulty(NamedTuple):
    score: float
    label: str
    win_share: float
    """Share of the casual games won."""


def difficulty(game_or_deal):
    share = casual_win_share(game_or_deal)
    score = 1.0 if share == 0 else min(1.0, math.log(1 / share) / math.log(PLAYOUTS))
    score = round(score, 4)
    return Difficulty(score, label_for(score), share)


def label_for(score):
    for bound, label in LABELS:
        if score < bound:
            return label
    return VERY_HARD


def casual_win_share(game_or_deal):
    """Share of ``PLAYOUTS`` casual games won from the deal or position."""
    game = game_or_deal if isinstance(game_or_deal, Game) else Game(game_or_deal)
    board = Board([VALUE[card] for card in game.stack(slot)] for slot in SLOTS)
    rng = random.Random(repr(board.stacks))
    wins = sum(_casual_game(board, rng) for _ in range(PLAYOUTS))
    return wins / PLAYOUTS


def _casual_game(board, rng):
    board.reset()
    while True:
        moves = _legal_moves(board)
        if not moves:
            return board.left == 0
        board.play(rng.choice(_fewest_lone_cards(board, moves)))


def _legal_moves(board):
    """Every legal move, as the engine lists them: each pair and trio of stacks."""
    showing = board.showing
    moves = [(low, high) for a, b in PAIRS for low in showing[a] for high in showing[b]]
    jacks, queens, kings = (showing[value] for value in TRIO)
    moves += [(j, q, k) for j in jacks for q in queens for k in kings]
    return sorted(moves)


def _fewest_lone_cards(board, moves):
    height = board.height
    lone = [sum(height[s] == 1 for s in move) for move in moves]
    fewest = min(lone)
    return [move for move, count in zip(moves, lone, strict=True) if count == fewest]
