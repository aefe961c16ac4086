"""
An event's standings: computed once per tick from one query, never per move.

`tick` settles the games that ended since the last tick, reads every player's live
points in one statement (settled points, plus the score of a game in play) already
in the rule's order (game/events/points.py), and once the event is over replays its
top 3 on the server (`verify_top`), fixes the final ranks and moves a rated event's
ratings (`finish`). The frame built from it
(`frame`) is the same bytes for every socket; each socket's own line and neighbours
come from the shared order (`near`).
"""

import time

from django.db import connection, transaction
from django.utils import timezone

from game.events import play, points
from game.models import Entry, Event, EventEntry, EventGame
from game.race import rated, verify

TOP = 20
NEAR = 2
"""Neighbours shown above and below one's own line."""

_RANKING = """
SELECT ee.id, ee.name, ee.points + CASE WHEN eg.id IS NULL THEN 0 ELSE COALESCE(e.score, 0) END,
       ee.wins, ee.time_ms
  FROM game_evententry ee
  LEFT JOIN game_eventgame eg ON eg.race_id = ee.current_id AND eg.points IS NULL
  LEFT JOIN game_entry e ON e.race_id = ee.current_id
 WHERE ee.event_id = %s
 ORDER BY 3 DESC, ee.time_ms, ee.id
"""


def ranking(event_id):
    """Every player as [rank, entry id, name, points, wins], best first."""
    with connection.cursor() as cursor:
        cursor.execute(_RANKING, [event_id])
        rows = cursor.fetchall()
    keys = [points.order_key(row[2], row[4], row[0]) for row in rows]
    return [
        [rank, row[0], row[1], row[2], row[3]]
        for rank, row in zip(points.ranks(keys), rows, strict=True)
    ]


def settle_ended(event_id):
    """Settle the entries whose game in play is over since the last tick."""
    ended = EventGame.objects.filter(
        entry__event_id=event_id,
        points__isnull=True,
        race__entries__status__in=Entry.DONE,
    ).values_list("entry_id", flat=True)
    for entry in EventEntry.objects.filter(pk__in=list(ended)).select_related("event"):
        play.settle(entry)


def finish(event):
    """Once the event is over: every game settled as it stood, the final ranks stored
    and, for a rated event, the ratings moved (game/race/rated.py) in the same
    transaction. Once: the event row is locked, and ranks already set stay."""
    if not event.entries.filter(rank__isnull=True).exists():
        return  # final already: no lock for every page read after the end
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        if not event.entries.filter(rank__isnull=True).exists():
            return
        for entry in event.entries.select_related("event"):
            play.settle(entry, final=True)
        verify_top(event)
        for rank, entry_id, *_ in ranking(event.pk):
            EventEntry.objects.filter(pk=entry_id).update(rank=rank)
        rated.settle_event(event)


def verify_top(event):
    """The event's top 3 replayed on the server before its ranks are final
    (game/race/verify.py): a game its moves do not make is held and counts nothing,
    and whoever moves up into the top is replayed in turn."""
    checked = set()
    for _ in range(verify.ROUNDS):
        top = [entry_id for _, entry_id, *_ in ranking(event.pk)[: verify.TOP]]
        pending = [entry_id for entry_id in top if entry_id not in checked]
        if not pending:
            return
        checked.update(pending)
        for entry in EventEntry.objects.filter(pk__in=pending).select_related("event"):
            players = Entry.objects.filter(race__event_game__entry=entry).select_related(
                "race__deal"
            )
            if verify.check_games(players):
                play.settle(entry, final=True)


def finish_ended(now=None):
    """`finish` every event over whose final ranks nobody stored yet (no socket watched
    its end, no page was read since): the daily job's catch-up. Returns how many."""
    now = now or timezone.now()
    unranked = EventEntry.objects.filter(rank__isnull=True).values("event_id")
    begun = Event.objects.filter(pk__in=unranked, starts_at__lte=now)
    over = [event for event in begun if event.ends_at <= now]
    for event in over:
        finish(event)
    return len(over)


def tick(event_id):
    """The standings now: (frame, rows). Runs once a second per event, on one process."""
    event = Event.objects.get(pk=event_id)
    over = timezone.now() >= event.ends_at
    if over:
        finish(event)
    else:
        settle_ended(event_id)
    rows = ranking(event_id)
    return frame(event, rows, over), rows


def frame(event, rows, over):
    """The `standings` frame: the top 20 and how many play; `at` is when it was
    computed (server ms), so a client knows its age."""
    return {
        "type": "standings",
        "id": event.pk,
        "at": int(time.time() * 1000),
        "over": over,
        "players": len(rows),
        "top": [_line(row) for row in rows[:TOP]],
    }


def near(rows, position):
    """The `standings_you` frame of the player at `position` (0-based) in `rows`."""
    low, high = max(0, position - NEAR), position + NEAR + 1
    return {
        "type": "standings_you",
        "rank": rows[position][0],
        "players": len(rows),
        "near": [_line(row) for row in rows[low:high]],
        "you": rows[position][1],
    }


def _line(row):
    rank, entry_id, name, earned, wins = row
    return {"rank": rank, "id": entry_id, "name": name, "points": earned, "wins": wins}
