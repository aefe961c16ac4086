"""
Splits against the ghost: in a ghost race, how far ahead of or behind the recorded game
a player is every `EVERY` removals (a removal is one accepted move: a pair or a Jack,
Queen and King; a won game is 48 of them, so six splits).

A game's time at n removals is read from its stored timeline (game/race/history.py):
the `at_ms` of the last step that brought its count up to n, kept only while the count
stays at n or more (an undo below n takes the split back; the move back up is a new
one). Both games are timed the same way, from their own `Move` rows and their race's
start, so the split a move announces is the one the end table shows. The player's live
split is timed by the same stored time (`Move.at`), never the browser's clock: the
process keeps each ghost race's start and its ghost's times in `paces`, so the fast
move path (game/race/moves.py) needs no query for it.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from game.race import history
from game.results import standings

EVERY = 8
"""Removals between two splits."""
_MOVES = 2
"""The index of `moves` in a timeline point (`history.timeline`)."""


def held(points):
    """{n: at_ms} for each multiple of EVERY a timeline's game held at its end: the time
    of the last step that brought its count up to n."""
    times, count = {}, 0
    for point in points:
        at_ms, moves = point[0], point[_MOVES]
        if moves > count and moves % EVERY == 0:
            times[moves] = at_ms
        elif moves < count:  # an undo: the splits above the count are taken back
            times = {n: at for n, at in times.items() if n <= moves}
        count = moves
    return times


def row(removals, you_ms, ghost_times):
    """One split: both times at `removals` and their difference (yours minus the ghost's:
    negative is ahead), None where a game never held that count."""
    ghost_ms = ghost_times.get(removals)
    both = you_ms is not None and ghost_ms is not None
    return {
        "removals": removals,
        "you_ms": you_ms,
        "ghost_ms": ghost_ms,
        "delta_ms": you_ms - ghost_ms if both else None,
    }


def table(mine, ghost):
    """The split table of two timelines: a row for each count either game held."""
    yours, theirs = held(mine), held(ghost)
    return [row(n, yours.get(n), theirs) for n in sorted(yours.keys() | theirs.keys())]


def race_table(race, ghost_points=None):
    """A ghost race's split table, from the stored moves of its player and its ghost
    (`ghost_points`: the ghost's timeline, when the caller has it already)."""
    entry = race.entries.filter(player_key=race.host_key).first()
    mine = history.timeline(entry, heights=False) if entry else []
    return table(mine, ghost_points or history.timeline(race.ghost_of, heights=False))


def makes_split(moves):
    """Whether a move that brings the count to `moves` makes a split."""
    return moves > 0 and moves % EVERY == 0


@dataclass(frozen=True)
class Pace:
    """What a live split needs of a ghost race: its start and its ghost's times."""

    started_at: object
    ghost_times: dict

    def split(self, moves, moment):
        """The split a move stored at `moment` makes, if it brings the count to `moves`, a
        multiple of EVERY; else None."""
        if not makes_split(moves):
            return None
        return row(moves, standings.since_start(self, moment), self.ghost_times)


NO_GHOST = None
"""The pace of an entry in any other race: no split."""
UNKNOWN = object()
"""An entry this process has no pace for (its socket connected elsewhere, or the LRU
dropped it): a move that would make a split goes the careful way, which reads it."""


def pace_of(race):
    """A race's Pace: NO_GHOST for a race without a ghost, UNKNOWN before it starts."""
    if race.ghost_of_id is None:
        return NO_GHOST
    if race.started_at is None:
        return UNKNOWN
    return Pace(race.started_at, held(history.timeline(race.ghost_of, heights=False)))


def pace_for(race, entry_id):
    """The entry's pace, from this process's memory, else read (and remembered)."""
    known = paces.get(entry_id)
    if known is UNKNOWN:
        known = pace_of(race)
        paces.put(entry_id, known)
    return known


def live(pace, moves, moment):
    """The split of a move stored at `moment` that brought the count to `moves` (None:
    no split, or no ghost)."""
    return pace.split(moves, moment) if isinstance(pace, Pace) else None


class Paces:
    """This process's paces by entry id, an LRU safe to share between threads: put when a
    player's socket connects (`actions.connect`), read by the fast move path."""

    def __init__(self, size=4096):
        self.size = size
        self._paces = OrderedDict()
        self._lock = threading.Lock()

    def put(self, entry_id, pace):
        with self._lock:
            self._paces[entry_id] = pace
            self._paces.move_to_end(entry_id)
            while len(self._paces) > self.size:
                self._paces.popitem(last=False)

    def get(self, entry_id):
        """The entry's Pace, NO_GHOST, or UNKNOWN."""
        with self._lock:
            return self._paces.get(entry_id, UNKNOWN)

    def clear(self):
        with self._lock:
            self._paces.clear()


paces = Paces()
