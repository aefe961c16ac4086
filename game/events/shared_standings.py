"""
The standings an event's page shows while it runs (game/web/event_pages.py), made once a
second per process per event instead of once a request: at an event's start every
newcomer opens its page first, and each page ranked every entry of the event in Python
(`standings.ranking`) to show the same top rows to all of them (docs/performance.md,
"The rush").

The sockets' standings are a second old too (game/events/live.py ticks once a second),
so the page says no less than the table's side panel. Each reader's own entry is read
per request. Kept as game/base/kept.py keeps values, for `KEPT` events at most. A
staff decision (a hidden name, a disqualified result) drops them in the process that
made it (game/staff/moderation.py): that page shows the decision at once.
"""

from game.base.kept import Kept
from game.events import standings

AGE_S = 1.0
"""How old the shown standings may be."""
KEPT = 64

_kept = Kept(AGE_S, KEPT)
"""event id -> standings.ranking(event)'s first standings.TOP rows."""


def top_rows(event_id):
    """The first standings.TOP rows of the event's ranking, at most `AGE_S` old."""
    return _kept.get(event_id, lambda: standings.ranking(event_id)[: standings.TOP])


def forget():
    _kept.forget()
