"""Deal analysis: the solver's verdict and the deal's difficulty, stored on ``Deal`` rows.

Two halves, so that the solving can run in worker processes that never touch
the database: :func:`analyse` works from a deal code or layout alone and
returns the fields; :func:`store` writes them on a row. This module imports
no model, so a worker process imports it without setting Django up.
"""

from django.utils import timezone

from game.engine import Deal
from game.engine.difficulty import difficulty
from game.engine.solver import SOLVER_VERSION, WINNABLE, solve

FIELDS = (
    "verdict",
    "winning_line",
    "solver_nodes",
    "solver_seconds",
    "difficulty",
    "difficulty_label",
    "solver_version",
    "analyzed_at",
)
"""The ``Deal`` fields an analysis writes."""


def analyse(code, layout=None, seconds=1.0):
    """The analysis fields of one deal (all but ``analyzed_at``), from its code or layout.

    A winnable deal also gets its difficulty; other verdicts leave it null.
    """
    if layout is None:
        deal = Deal.from_code(code)
    else:
        deal = Deal.from_layout(layout["piles"], layout["reserve"], code=code)
    result = solve(deal, max_seconds=seconds)
    winnable = result.verdict == WINNABLE
    rating = difficulty(deal) if winnable else None
    return {
        "verdict": result.verdict,
        "winning_line": [list(move) for move in result.moves] if winnable else None,
        "solver_nodes": result.nodes,
        "solver_seconds": round(result.seconds, 4),
        "difficulty": rating.score if rating else None,
        "difficulty_label": rating.label if rating else None,
        "solver_version": SOLVER_VERSION,
    }


def analyse_job(job):
    """:func:`analyse` for a worker pool: ``(code, layout, seconds)`` in, ``(code, fields)`` out."""
    code, layout, seconds = job
    return code, analyse(code, layout, seconds)


def store(deal_row, fields):
    """Write an analysis on a ``Deal`` row, stamped with the time it is stored."""
    for name, value in fields.items():
        setattr(deal_row, name, value)
    deal_row.analyzed_at = timezone.now()
    deal_row.save(update_fields=list(FIELDS))
    return deal_row


def analyze_deal_row(deal_row, seconds=1.0):
    """Analyse one ``Deal`` row in this process and store the result (the admin's action)."""
    layout = deal_row.layout if deal_row.source == deal_row.CUSTOM else None
    return store(deal_row, analyse(deal_row.code, layout, seconds))
