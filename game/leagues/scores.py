"""
The week's results that may score, read from what the races, the ratings and the
events stored: the one reader both a member's points (game/leagues/members.py) and a
week's settlement (game/leagues/weeks.py) recompute from.
"""

import datetime

from django.db.models import Q

from game.leagues import rules
from game.models import Entry, EventEntry, RatingChange

WEEK = datetime.timedelta(days=7)


def week_bounds(week):
    """The week's first and last instants (UTC): Monday 00:00 to the next Monday."""
    start = datetime.datetime.combine(week, datetime.time(), tzinfo=datetime.UTC)
    return start, start + WEEK


def results(user_id, week):
    """The account's results of `week` that may score, as `rules.Result`s."""
    start, end = week_bounds(week)
    return [
        *_dailies(user_id, start, end),
        *_races(user_id, start, end),
        *_events(user_id, start, end),
    ]


def _dailies(user_id, start, end):
    entries = Entry.objects.filter(
        user_id=user_id,
        daily_date__isnull=False,
        ranked=True,
        finished_at__gte=start,
        finished_at__lt=end,
    ).values_list("finished_at", "moves", "status")
    return [
        rules.Result(rules.DAILY, at, moves, won=status == Entry.WON)
        for at, moves, status in entries
    ]


def _races(user_id, start, end):
    changes = (
        RatingChange.objects.filter(user_id=user_id, race__isnull=False, at__gte=start, at__lt=end)
        .exclude(wins=0, losses=0, draws=0)
        .values_list("race_id", "at", "wins", "entry__moves")
    )
    changes = list(changes)
    others = {}
    opponents = Entry.objects.filter(race_id__in=[race for race, *_ in changes], user__isnull=False)
    for race_id, other in opponents.exclude(user_id=user_id).values_list("race_id", "user_id"):
        others.setdefault(race_id, set()).add(other)
    return [
        rules.Result(rules.RACE, at, moves, beaten=wins, opponents=frozenset(others.get(race, ())))
        for race, at, wins, moves in changes
    ]


def _events(user_id, start, end):
    entries = EventEntry.objects.filter(
        user_id=user_id, rank__isnull=False, event__starts_at__gte=start, event__starts_at__lt=end
    ).filter(Q(points__gt=0) | Q(wins__gt=0))
    return [
        rules.Result(rules.EVENT, entry.event.ends_at, rules.MIN_MOVES, rank=entry.rank)
        for entry in entries.select_related("event")
    ]
