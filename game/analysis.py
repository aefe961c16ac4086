"""Deal analysis: the solver's verdict and the deal's difficulty, stored on ``Deal`` rows.

Two halves, so that the solving can run in worker processes that never touch
the database: :func:`analyse` works from a deal code or layout alone and
returns the fields; :func:`store` writes them on a row. This module imports
no model, so a worker process imports it without setting Django up.
"""

from django.utils import timezone

from game.engine import Deal, replay
from game.engine.difficulty import difficulty
from game.engine.solver import SOLVER_VERSION, UNKNOWN, WINNABLE, solve

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


def _deal(code, layout):
    if layout is None:
        return Deal.from_code(code)
    return Deal.from_layout(layout["piles"], layout["reserve"], code=code)


def analyse(code, layout=None, seconds=1.0):
    """The analysis fields of one deal (all but ``analyzed_at``), from its code or layout.

    A winnable deal also gets its difficulty; other verdicts leave it null.
    """
    deal = _deal(code, layout)
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


def hindsight(code, layout, line, seconds, fields=None):
    """For a finished game: ``(fields, winnable_until)``.

    ``fields`` is the deal's analysis, made here when not given; ``winnable_until``
    is how many moves of ``line`` kept the game winnable (None when the deal is not
    winnable or the solver is unsure). Along one line winnability can be lost but
    never regained (a position can be won only if the one before it could), so the
    winnable moves are a prefix of the line, found by bisection.
    """
    fields = fields or analyse(code, layout, seconds)
    if fields["verdict"] != WINNABLE:
        return fields, None
    deal = _deal(code, layout)
    low, high = 0, len(line)  # low: known winnable; above high: known lost
    while low < high:
        middle = (low + high + 1) // 2
        verdict = solve(replay(deal, line[:middle]), max_seconds=seconds).verdict
        if verdict == UNKNOWN:
            return fields, None
        if verdict == WINNABLE:
            low = middle
        else:
            high = middle - 1
    return fields, low


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
