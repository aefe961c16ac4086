"""
A day's attempts that ran out of time with no one connected: finished before a board
reads them, so an abandoned game shows up as timed out instead of never.

Apart from the day's deal (game/deals/daily.py), which is chosen below the race core:
finishing a race is a race action and its broadcast, so it lives above them both.
"""

from django.utils import timezone

from game.models import Race
from game.race import actions
from game.realtime import broadcast


def finish_expired(day):
    """Finish the attempts at `day`'s deal whose time ran out while no one was connected."""
    attempts = Race.objects.filter(mode=Race.DAILY, daily_date=day.date, status=Race.RUNNING)
    now = timezone.now()
    for race in attempts:
        if race.ends_at <= now:
            broadcast.publish_outcome(race.room, actions.tick(race.room))
