"""``solve()``: one budget shared by a forward and an upside-down search.

A position can be won exactly when the same position with every stack turned
over can be won, the winning line read backwards (docs/solver.md, "Upside
down"). The two searches meet very different trouble: a deal whose forward
search drowns in lines that all die near the end is often settled at once
upside down, where that end comes first — and the other way round. So both
run, in turns, each for a slice of nodes that grows by half every round; the
first to settle the question answers it.

Between its slices a search restarts from the top with a perturbed move
ordering, keeping every position it proved lost, so an unlucky first choice
costs one slice, not the whole budget. The outcome depends on the budget only
through where it stops: the same deal gets the same line on any machine.
"""

from dataclasses import dataclass

from ..cards import SLOTS, VALUE
from ..game import Game
from .board import CLASSES, Board
from .search import Budget, Guard, OutOfBudget, Search

SOLVER_VERSION = "1"
"""Bumped whenever a verdict, line or count could change; stored with every analysis."""

WINNABLE, NOT_WINNABLE, UNKNOWN = "winnable", "not_winnable", "unknown"

FIRST_SLICE = 2_000
"""Nodes in each search's first slice; most winnable deals need fewer."""


@dataclass(frozen=True)
class SolveResult:
    verdict: str
    moves: list | None
    """A winning line of slot tuples, valid from the given position; None unless winnable."""
    nodes: int
    seconds: float
    """CPU seconds of the solving thread."""


def solve(game_or_deal, max_nodes=None, max_seconds=1.0):
    """Decide whether a deal, or a game in progress, can still be won.

    Stops after ``max_nodes`` nodes or ``max_seconds`` CPU seconds (``None``:
    no limit) with verdict ``unknown``.
    """
    game = game_or_deal if isinstance(game_or_deal, Game) else Game(game_or_deal)
    budget = Budget(max_nodes, max_seconds)
    board = Board([VALUE[card] for card in game.stack(slot)] for slot in SLOTS)
    try:
        verdict, line = _decide(board, budget)
    except OutOfBudget:
        verdict, line = UNKNOWN, None
    moves = None if line is None else [tuple(SLOTS[s] for s in move) for move in line]
    return SolveResult(verdict, moves, budget.nodes, budget.seconds)


def _decide(board, budget):
    forward = _guarded_search(board, budget)
    backward = _guarded_search(board.upside_down(), budget)
    nodes, seed = FIRST_SLICE, 0
    while True:
        for search in (forward, backward):
            won = search.run(nodes, seed)
            if won is False:
                return NOT_WINNABLE, None
            if won:
                line = search.line if search is forward else search.line[::-1]
                return WINNABLE, line
        nodes, seed = nodes * 3 // 2, seed + 1


def _guarded_search(board, budget):
    guards = [Guard(board, cls, budget) for cls in CLASSES if board.class_keys[cls]]
    return Search(board, budget, guards)
