"""
The standings an event's page shows while it runs (game/web/event_pages.py), made once a
second per process per event instead of once a request: at an event's start every
newcomer opens its page first, and each page ranked every entry of the event in Python
(`standings.ranking`) to show the same top rows to all of them (docs/performance.md,
"The rush").

The sockets' standings are a second old too (game/events/live.py ticks once a second),
so the page says no less than the table's side panel. Each reader's own entry is read
per request. Kept in the process's memory and rebuilt by the first reader after it is
`AGE_S` old; a reader waits for the one building it rather than building it too. A
staff decision (a hidden name, a disqualified result) drops it in the process that
made it (game/staff/moderation.py): that page shows the decision at once. At
most `KEPT` events are kept: more at once (every event's page read in one second) and
the oldest are dropped.
"""

import threading
import time
from typing import NamedTuple

from game.events import standings

AGE_S = 1.0
"""How old the shown standings may be."""
KEPT = 64


def clock():
    """Seconds on a clock that never goes back (tests move it)."""
    return time.monotonic()


class Shared(NamedTuple):
    rows: list
    """standings.ranking(event)'s first standings.TOP rows."""
    built_at: float


_lock = threading.Lock()
_kept = {}
"""event id -> its `Shared`."""


def _fresh(shared):
    return shared is not None and clock() - shared.built_at < AGE_S


def top_rows(event_id):
    """The first standings.TOP rows of the event's ranking, at most `AGE_S` old."""
    found = _kept.get(event_id)
    if _fresh(found):
        return found.rows
    with _lock:
        found = _kept.get(event_id)
        if not _fresh(found):  # another thread may have built it meanwhile
            built_at = clock()  # its age counts from before it was read
            found = Shared(standings.ranking(event_id)[: standings.TOP], built_at)
            _kept.pop(event_id, None)
            while len(_kept) >= KEPT:
                del _kept[next(iter(_kept))]  # the oldest built
            _kept[event_id] = found
        return found.rows


def forget():
    """Drop what this process keeps: the next reader builds it (tests, whose databases
    are rolled back under it)."""
    _kept.clear()
