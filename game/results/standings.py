"""
Who beat whom: the ranking of a race and of a day's leaderboard.

Won before not won; among wins the shorter server time, then fewer undos
(assists); then the higher score, fewer moves, and whoever got there earlier;
a player counted out for leaving (abandoned) after everyone who stayed. A time
is measured from the start of the entry's own race, so daily games played at
different hours rank on the same footing. The ranked daily board
(game/daily/day_board.py) orders its SQL the same way but for the last
ties: wins by `finished_at` (a win's last move, so the same order), other
results by score, moves, then `finished_at` (when they resigned or ran out of
time, not their last move), and none counted out (a daily game never is).
"""

from datetime import timedelta

from game.models import Entry

MS = timedelta(milliseconds=1)
WIN_ORDER = [
    ("time_ms", False),
    ("undos", False),
    ("score", True),
    ("moves", False),
    ("finished_at", False),
    ("id", False),
]
"""A day's wins in board order, (field, descending) (game/daily/day_board.py's SQL)."""


def order_by(order):
    """An `order_by` of (field, descending) pairs."""
    return [f"-{field}" if descending else field for field, descending in order]


def since_start(race, moment):
    """Milliseconds from the race's start to `moment` (None without either), counted in
    integers: a packed game's times (game/results/move_log.py) come back to the same ms."""
    if race.started_at is None or moment is None:
        return None
    return max(0, (moment - race.started_at) // MS)


def time_ms(entry, now=None):
    """Milliseconds from the race start to the entry's finish (or to `now` while playing)."""
    return since_start(entry.race, entry.finished_at or entry.race.finished_at or now)


def _time(entry):
    return entry.time_ms if entry.time_ms is not None else time_ms(entry)


def _key(entry):
    reached = entry.last_move_at or entry.joined_at
    if entry.status == Entry.WON:
        return (0, _time(entry), entry.undos, -entry.score, entry.moves, reached, entry.pk)
    counted_out = entry.status == Entry.ABANDONED
    return (2 if counted_out else 1, 0, 0, -entry.score, entry.moves, reached, entry.pk)


def ranked(entries):
    """[(rank, entry)], best first; ties never share a rank (the earlier one wins)."""
    return list(enumerate(sorted(entries, key=_key), start=1))


def row(rank, entry):
    """One line of standings or of a leaderboard."""
    return {
        "rank": rank,
        "player": entry.pk,
        "name": entry.name,
        "status": entry.status,
        "score": entry.score,
        "moves": entry.moves,
        "undos": entry.undos,
        "time_ms": _time(entry),
        "flagged": entry.review == Entry.FLAGGED,
        "disqualified": entry.review == Entry.DISQUALIFIED,
        "ranked": entry.ranked,
        "verified": entry.verification == Entry.VERIFIED,
        "held": entry.verification in Entry.HELD,
        "held_pace": entry.verification == Entry.HELD_PACE,
    }


def standings(entries):
    return [row(rank, entry) for rank, entry in ranked(entries)]
