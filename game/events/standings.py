"""
An event's standings: computed once per tick from one query, never per move.

`tick` settles the games that ended since the last tick, reads every player's live
points in one statement (settled points, plus the score of a game in play) already
in the rule's order (game/events/points.py), and once the event is over replays
its top 3 on the server (`verify_top`), fixes the final ranks and moves a rated
event's ratings (`finish`).

The standings are three lists, as the daily board's (docs/fair-play.md): accounts old
enough to rank (`accounts.may_rank`) first, ranked among themselves; then guests and
younger accounts, ranked among themselves; then the results held for review (a game
flagged by the fair-play checks or disqualified), unranked, marked, and out of the
ranks above until staff confirm them (`decided`). So a flagged bot is never rank 1,
and a spare cookie or a day-old account never pushes an account down. The frame built from it
(`frames.event_standings`) is the same bytes for every socket; each socket's own line
and neighbours come from the shared order (`frames.standings_you`, in game/events/live.py).
"""

import itertools

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from game.events import play, points
from game.leagues import members
from game.models import Entry, Event, EventEntry, EventGame
from game.players import accounts
from game.race import frames, rated, verify

TOP = 20
NEAR = 2
"""Neighbours shown above and below one's own line."""

RANKED, GUESTS, HELD = "ranked", "guests", "held"
LISTS = (RANKED, GUESTS, HELD)
"""The standings' lists, in their order (a row's last field)."""

# The held entries are found among this event's games only (never a scan of every result).
_RANKING = """
WITH held AS (
  SELECT DISTINCT g.entry_id FROM game_eventgame g
    JOIN game_evententry h ON h.id = g.entry_id
    JOIN game_entry x ON x.race_id = g.race_id
   WHERE h.event_id = %s AND x.review IN (%s, %s)
)
SELECT ee.id, ee.name, ee.points + CASE WHEN eg.id IS NULL THEN 0 ELSE COALESCE(e.score, 0) END,
       ee.wins, ee.time_ms,
       CASE WHEN held.entry_id IS NOT NULL THEN 2 WHEN u.date_joined <= %s THEN 0 ELSE 1 END
  FROM game_evententry ee
  LEFT JOIN game_eventgame eg ON eg.race_id = ee.current_id AND eg.points IS NULL
  LEFT JOIN game_entry e ON e.race_id = ee.current_id
  LEFT JOIN {users} u ON u.id = ee.user_id
  LEFT JOIN held ON held.entry_id = ee.id
 WHERE ee.event_id = %s
 ORDER BY 6, 3 DESC, ee.time_ms, ee.id
"""


def ranking(event_id):
    """Every player as [rank, entry id, name, points, wins, list], best first: ranked
    within their list (`LISTS`), a held result with no rank."""
    young = timezone.now() - accounts.min_age()
    params = [event_id, Entry.FLAGGED, Entry.DISQUALIFIED, young, event_id]
    with connection.cursor() as cursor:
        cursor.execute(_RANKING.format(users=get_user_model()._meta.db_table), params)
        rows = cursor.fetchall()
    out = []
    for among, group in itertools.groupby(rows, key=lambda row: row[5]):
        group = list(group)
        keys = [points.order_key(row[2], row[4], row[0]) for row in group]
        ranks = points.ranks(keys) if LISTS[among] != HELD else [None] * len(group)
        out += [[rank, *row[:4], LISTS[among]] for rank, row in zip(ranks, group, strict=True)]
    return out


def final_ranks(rows):
    """{entry id: its stored final rank}: one order over the lists, each list's ranks
    after the lists before it (the rating's neighbours, a profile's best rank)."""
    found, ahead = {}, 0
    for _among, group in itertools.groupby(rows, key=lambda row: row[5]):
        group = list(group)
        for position, row in enumerate(group, start=1):
            found[row[1]] = ahead + (row[0] or position)
        ahead += len(group)
    return found


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
        _store_ranks(event)
        rated.settle_event(event)
        members.note_event(event)


def _store_ranks(event):
    for entry_id, rank in final_ranks(ranking(event.pk)).items():
        EventEntry.objects.filter(pk=entry_id).exclude(rank=rank).update(rank=rank)


def decided(race):
    """After a staff decision on `race`'s result: if it is a game of an event whose
    standings are final, store its ranks again (a confirmed result leaves the held
    list) and rate the event again with them."""
    event = Event.objects.filter(entries__games__race=race).first()
    if event is None or event.entries.filter(rank__isnull=True).exists():
        return
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        _store_ranks(event)
        rated.settle_event(event)
        members.note_event(event)


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
    return frames.event_standings(event.pk, rows, TOP, over), rows
