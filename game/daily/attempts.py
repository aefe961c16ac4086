"""
A day's attempts that ran out of time with no one connected: finished before a board
reads them, so an abandoned game shows up as timed out instead of never.

Apart from the day's deal (game/deals/daily.py), which is chosen below the race core:
finishing a race is a race action and its broadcast, so it lives above them both.
"""

import functools

from django.db import connection
from django.utils import timezone

from game.base import sql
from game.models import Race
from game.race import actions
from game.realtime import broadcast


@functools.cache
def _expired(vendor):
    """The rooms of a day's attempts still running whose time ran out (`Race.ends_at`, in
    `vendor`'s SQL): every view of a day's board asks, so the statement is written once
    and only the expired attempts' rooms are read, not a model of each attempt in play."""
    ends_at = sql.plus_seconds("started_at", "time_limit_s", vendor)
    return (
        "SELECT room FROM game_race WHERE mode = %s AND daily_date = %s AND status = %s"
        f" AND {ends_at} <= %s"
    )


def finish_expired(day):
    """Finish the attempts at `day`'s deal whose time ran out while no one was connected."""
    now = sql.prepared(Race, "started_at", timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_expired(connection.vendor), [Race.DAILY, day.date, Race.RUNNING, now])
        rooms = [room for (room,) in cursor.fetchall()]
    for room in rooms:
        broadcast.publish_outcome(room, actions.tick(room))
