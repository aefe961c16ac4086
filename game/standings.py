"""
Who beat whom: the ranking of a race and of a day's leaderboard.

Won before not won; among winners the shorter time; otherwise the higher
score, then fewer moves, then whoever got there earlier; a player counted out
for leaving (abandoned) after everyone who stayed. A time is measured
from the start of the entry's own race, so daily games played at different
hours rank on the same footing.
"""

from game.models import Entry


def time_ms(entry, now=None):
    """Milliseconds from the race start to the entry's finish (or to `now` while playing)."""
    started = entry.race.started_at
    end = entry.finished_at or entry.race.finished_at or now
    if started is None or end is None:
        return None
    return max(0, int((end - started).total_seconds() * 1000))


def _key(entry):
    if entry.status == Entry.WON:
        return (0, time_ms(entry), entry.pk)
    reached = entry.last_move_at or entry.joined_at
    counted_out = entry.status == Entry.ABANDONED
    return (2 if counted_out else 1, -entry.score, entry.moves, reached, entry.pk)


def ranked(entries):
    """[(rank, entry)], best first; ties never share a rank (the earlier one wins)."""
    return list(enumerate(sorted(entries, key=_key), start=1))


def standings(entries):
    return [
        {
            "rank": rank,
            "player": entry.pk,
            "name": entry.name,
            "status": entry.status,
            "score": entry.score,
            "moves": entry.moves,
            "time_ms": time_ms(entry),
        }
        for rank, entry in ranked(entries)
    ]
