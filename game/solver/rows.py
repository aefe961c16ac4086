"""
The `Deal` rows an analysis run works on: found (numbered ones created on the way, as
on first play) and told apart from those the current solver already analysed, so a run
interrupted goes on where it stopped. Shared by `manage.py analyse_deals` and the
calendar's "Fill the coming four weeks" (game/daily/ahead.py).
"""

from game.engine.solver import SOLVER_VERSION, UNKNOWN
from game.models import Deal

BATCH = 500
"""Codes per query and per insert: well under every database's parameter limit."""


class NoSuchDeal(LookupError):
    """Custom codes no one entered (only a numbered code is a deal by itself)."""


def rows_of(codes):
    """The rows of `codes` in order, creating numbered ones; custom ones must exist."""
    codes = list(dict.fromkeys(codes))
    numbered = [
        Deal(code=code, source=Deal.NUMBERED) for code in codes if code.startswith("HM1-N-")
    ]
    Deal.objects.bulk_create(numbered, batch_size=BATCH, ignore_conflicts=True)
    found = {}
    for start in range(0, len(codes), BATCH):
        found |= Deal.objects.in_bulk(codes[start : start + BATCH], field_name="code")
    missing = [code for code in codes if code not in found]
    if missing:
        raise NoSuchDeal(f"no such custom deal: {', '.join(missing[:10])}")
    return [found[code] for code in codes]


def needs_analysis(row, retry_unknown=False):
    """Whether the current solver has no verdict on `row` (or only "unknown", if retried)."""
    if row.solver_version != SOLVER_VERSION or row.verdict is None:
        return True
    return retry_unknown and row.verdict == UNKNOWN
