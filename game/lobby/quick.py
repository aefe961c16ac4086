"""
The quick-race queue: strangers put into a race of up to 8 that starts by itself.

The queue lives in the database (`QuickSeat`), so players polling different
processes wait in the same line. Each poll refreshes the player's seat and, in
one transaction with the waiting seats locked, seats a race when it is time:
8 waiting at once, 3 or more once the first has waited HALFMOON_QUICK_WAIT_S,
or 2 once the first has waited HALFMOON_QUICK_WAIT_PAIR_S. The race goes
straight into its countdown, twice the usual one so that its players
have time to poll, open the race and connect; its players are those seats.

Polls are serialized across processes by one advisory lock on the queue, taken
first in every transaction that changes it: each poll used to lock the seats it
touched in its own order (the stale ones, its own, the waiting ones), and
concurrent polls deadlocked (19 of 64 answered 500).
"""

from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from game.deals import codes
from game.models import Entry, QuickSeat, Race
from game.race import actions, refusals
from game.realtime import broadcast

QUEUE_LOCK = 0x48_4D_51_52
"""The advisory lock of the queue ("HMQR"), the same on every process."""


def poll(player_key, name):
    """Wait in (or keep waiting in) the queue: {"room": ...} once placed, else {"waiting": n}."""
    now = timezone.now()
    with transaction.atomic():
        _lock_queue()
        stale = now - timedelta(seconds=settings.HALFMOON_QUICK_STALE_S)
        QuickSeat.objects.filter(race__isnull=True, seen_at__lt=stale).delete()
        seat, _ = QuickSeat.objects.select_for_update().get_or_create(
            player_key=player_key, defaults={"name": name, "since": now, "seen_at": now}
        )
        if seat.race_id is not None and not _still_seated(seat):
            # Placed once but never collected (the tab closed first): queue anew.
            seat.race, seat.since = None, now
        if seat.race_id is None:
            seat.name, seat.seen_at = name, now
            seat.save(update_fields=["name", "seen_at", "since", "race"])
            waiting = list(QuickSeat.objects.select_for_update().filter(race__isnull=True))
            if _time_to_go(waiting, now):
                _seat_race(waiting[: refusals.MAX_PLAYERS], now)
                seat.refresh_from_db()
        if seat.race_id is None:
            return {"waiting": QuickSeat.objects.filter(race__isnull=True).count()}
        room = seat.race.room
        seat.delete()
        return {"room": room}


def _still_seated(seat):
    """The seat's race still has this player and is not over."""
    return (
        Entry.objects.filter(race_id=seat.race_id, player_key=seat.player_key)
        .exclude(race__status=Race.FINISHED)
        .exists()
    )


def leave(player_key):
    with transaction.atomic():
        _lock_queue()
        QuickSeat.objects.filter(player_key=player_key, race__isnull=True).delete()


def _lock_queue():
    """Wait for the queue, held until the transaction ends (SQLite's transactions
    are serialized already: it takes its write lock up front)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [QUEUE_LOCK])


def _time_to_go(waiting, now):
    if len(waiting) >= refusals.MAX_PLAYERS:
        return True
    waited = (now - waiting[0].since).total_seconds() if waiting else 0
    if len(waiting) >= 3:
        return waited >= settings.HALFMOON_QUICK_WAIT_S
    return len(waiting) == 2 and waited >= settings.HALFMOON_QUICK_WAIT_PAIR_S


def _seat_race(seats, now):
    race = actions.create_race(codes.random_deal(), host_key="", mode=Race.QUICK, deal_hidden=True)
    for seat in seats:
        actions.add_entry(race, seat.player_key, seat.name)
    QuickSeat.objects.filter(pk__in=[seat.pk for seat in seats]).update(race=race)
    countdown = actions.start_now(race.room, delay=2 * settings.HALFMOON_COUNTDOWN_S)
    broadcast.publish_outcome(race.room, countdown)
