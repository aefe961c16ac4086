"""Deal analysis: the solver's verdict and the deal's difficulty, stored on ``Deal`` rows;
and where a finished game's line stopped being winnable (:func:`settle`, :func:`follow`).

Two halves, so that the solving can run in worker processes that never touch
the database: :func:`analyse` and :func:`follow` work from a deal code or layout
alone and return what they found; the caller stores it (:func:`store`, and
``game/replays/analysis.py`` for positions). This module imports no model, so a worker
process imports it without setting Django up.
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


class Unsolved(LookupError):
    """A position whose verdict is not known yet (raised by a `verdict_at` that only reads)."""


def settle(length, verdict_at):
    """``(deal verdict, winnable_until)`` for a line of ``length`` moves.

    ``verdict_at(m)`` is the verdict of the position after the line's first ``m``
    moves. ``winnable_until`` is how many moves kept the game winnable: None when
    the deal is not winnable or the solver is unsure. Along one line winnability
    can be lost but never regained (a position can be won only if the one before
    it could), so the winnable positions are a prefix of the line, found by
    bisection: the same positions are asked for the same line every time, which
    is what lets their verdicts be kept and shared.
    """
    deal_verdict = verdict_at(0)
    if deal_verdict != WINNABLE:
        return deal_verdict, None
    low, high = 0, length  # low: known winnable; above high: known lost
    while low < high:
        middle = (low + high + 1) // 2
        verdict = verdict_at(middle)
        if verdict == UNKNOWN:
            return deal_verdict, None
        if verdict == WINNABLE:
            low = middle
        else:
            high = middle - 1
    return deal_verdict, low


def follow(code, layout, line, seconds, known):
    """For a solver worker: the positions of ``line`` that :func:`settle` needs and
    ``known`` (``{moves: {"verdict", "line"}}``) lacks, each solved within ``seconds``.

    Returns ``{moves: {"verdict", "line", "nodes", "seconds"}}`` for the positions
    solved here; ``"line"`` is a winning line from that position (None unless
    winnable). The caller stores them.
    """
    deal = _deal(code, layout)
    known = dict(known)
    solved = {}

    def verdict_at(moves):
        if moves not in known:
            result = solve(replay(deal, line[:moves]), max_seconds=seconds)
            winning = [list(move) for move in result.moves] if result.moves is not None else None
            known[moves] = solved[moves] = {
                "verdict": result.verdict,
                "line": winning,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 4),
            }
        return known[moves]["verdict"]

    settle(len(line), verdict_at)
    return solved


def store(deal_row, fields):
    """Write an analysis on a ``Deal`` row, stamped with the time it is stored."""
    for name, value in fields.items():
        setattr(deal_row, name, value)
    deal_row.analyzed_at = timezone.now()
    deal_row.save(update_fields=list(FIELDS))
    return deal_row


def analyse_deal_row(deal_row, seconds=1.0):
    """Analyse one ``Deal`` row in this process and store the result (the admin's action)."""
    return store(deal_row, analyse(deal_row.code, deal_row.custom_layout(), seconds))
