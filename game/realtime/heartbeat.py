"""
A process's heartbeat: it keeps its sockets' presence marks alive and visits
the races whose attendance changed.

One task per process, every settings.HALFMOON_HEARTBEAT_S: refresh the marks
and socket leases of every socket this process serves (Redis round trips), read the marks of
every race still in play, and `actions.tick` the few that `attendance.review`
says need it — a player whose marks ran out (their process died, their network
went), a player counted out, a host to replace. Every process does it; the
race lock makes a change happen once. A race in which nobody is left at all is
settled by the next process that looks at it (an action, a page, a leaderboard).
"""

import asyncio
import logging
import weakref
from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from game.base import limits, metrics, presence
from game.models import Entry, Race
from game.race import actions, attendance
from game.realtime import broadcast

logger = logging.getLogger(__name__)
ACTIVE = (Race.LOBBY, Race.COUNTDOWN, Race.RUNNING)
RECENT = timedelta(days=1)
"""Races older than this that are still in play are settled lazily, not swept."""

_sockets = {}
"""socket id -> (room, entry id) of this process's sockets that are players."""
_loops = weakref.WeakKeyDictionary()


def start():
    """Run this event loop's heartbeat (once a socket is open here)."""
    loop = asyncio.get_running_loop()
    if loop not in _loops:
        _loops[loop] = loop.create_task(_run())


def watch(socket, room, entry_id):
    _sockets[socket] = (room, entry_id)
    start()


def unwatch(socket):
    _sockets.pop(socket, None)


async def _run():
    while True:
        await asyncio.sleep(settings.HALFMOON_HEARTBEAT_S)
        try:
            for room, outcome in await database_sync_to_async(beat)():
                await broadcast.publish_outcome_async(room, outcome)
        except Exception:
            logger.exception("presence heartbeat failed; the next one tries again")


def refresh_marks():
    """Every player socket's mark renewed now (on SIGTERM, before they are closed: a
    player then has the mark's full life to come back elsewhere, unannounced)."""
    presence.refresh([(room, entry_id, socket) for socket, (room, entry_id) in _sockets.items()])


@metrics.heartbeat_seconds.time()
def beat():
    """Refresh this process's marks and socket leases; tick the races whose attendance
    changed."""
    limits.renew_sockets()
    refresh_marks()
    return [(room, actions.tick(room)) for room in due_rooms()]


def due_rooms():
    """The rooms whose attendance changed. Only races with a player who may have
    changed are read: one announced present whose marks have run out (their
    process died, their network went), or one gone past the grace period who is
    still racing or still hosting (to be counted out, or replaced). A player
    announced gone within the grace period changes nothing until it has passed;
    coming back announces itself. Most beats find every present player's mark
    alive: that costs one narrow query and one Redis read, no model is built."""
    now = timezone.now()
    gone_long = now - timedelta(seconds=settings.HALFMOON_ABANDON_S)
    waiting = Q(connected=False, left_at__lte=gone_long) & (
        Q(race__status=Race.RUNNING) & ~Q(status__in=Entry.DONE) | Q(race__host_key=F("player_key"))
    )
    candidates = Entry.objects.filter(race__status__in=ACTIVE, race__created_at__gte=now - RECENT)
    race_ids = set(candidates.filter(waiting).values_list("race_id", flat=True))
    present = list(candidates.filter(connected=True).values_list("race_id", "race__room", "id"))
    rooms = {race_id: room for race_id, room, _ in present}
    marks = dict(zip(rooms, presence.present_until(list(rooms.values())), strict=True))
    stamp = now.timestamp()
    race_ids |= {race for race, _, entry in present if marks[race].get(entry, 0.0) <= stamp}
    if not race_ids:
        return []
    entries = Entry.objects.filter(race_id__in=race_ids).select_related("race")
    by_race = {}
    for entry in entries:
        by_race.setdefault(entry.race_id, (entry.race, []))[1].append(entry)
    found = list(by_race.values())
    marks = presence.present_until([race.room for race, _ in found])
    return [
        race.room
        for (race, group), until in zip(found, marks, strict=True)
        if _needs_visit(attendance.review(race, group, until, now))
    ]


def _needs_visit(review):
    return bool(review.changes) or review.new_host is not None
