"""The Half Moon solver: is a deal, or a game in progress, winnable?

Exact: ``winnable`` comes with a winning line the engine can replay,
``not_winnable`` is a proof by exhaustive search, ``unknown`` means the budget
ran out first. docs/solver.md explains the search and proves each reduction.
"""

from .portfolio import NOT_WINNABLE, SOLVER_VERSION, UNKNOWN, WINNABLE, SolveResult, solve

__all__ = ["NOT_WINNABLE", "SOLVER_VERSION", "UNKNOWN", "WINNABLE", "SolveResult", "solve"]
