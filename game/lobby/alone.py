"""
Games played alone (`Race.ALONE`): a solo game, a past day played later, the day's one
attempt, a ghost race, a verification deal.

Each is a race of one player that starts when its socket connects. Opening one
again (a reload, a second tab, a link) must find the player's race rather than
deal them a new one: an unfinished solo or ghost race is found again (neither has
a time limit: game/race/clock.py), and a daily attempt is found whether finished or
not, because a day has only one. A solo game starts again from its deal only when
its player restarts it (`actions.restart`), which ends the old one first.
"""

import hashlib

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from game.deals.daily import attempt_deal
from game.models import DailyDeal, Race
from game.race import actions
from game.results import verify


def solo_race(deal, player_key, name):
    """This player's unfinished solo race on `deal` (with time left), or a new one; never
    a past day played later on the same deal (`later_race`), which stays that day's."""
    mine = Race.objects.filter(
        mode=Race.SOLO, deal=deal, daily_date__isnull=True, entries__player_key=player_key
    )
    return _unfinished(mine) or actions.create_race(deal, player_key, mode=Race.SOLO, name=name)


def later_race(day, player_key, name):
    """This player's unfinished game on a past day's ranked deal played later (`day`, a
    DailyDeal), or a new one: a solo game that carries its day, so the day's board lists
    it as played later (game/daily/archive.py); its entry is no attempt (no
    `Entry.daily_date`), so it never ranks nor counts for a streak."""
    mine = Race.objects.filter(mode=Race.SOLO, daily_date=day.date, entries__player_key=player_key)
    return _unfinished(mine) or actions.create_race(
        day.deal, player_key, mode=Race.SOLO, name=name, daily_date=day.date
    )


def verification_race(held, player_key, name):
    """This player's unfinished verification deal for `held` (a win held for its pace:
    game/results/verify.py), or a new one: an unseen deal, its code hidden until it is
    over, played alone and never ranked (a solo game); None when no unseen deal was
    found just now."""
    mine = Race.objects.filter(verifies=held, entries__player_key=player_key)
    unfinished = _unfinished(mine)
    deal = None if unfinished else verify.unseen_deal()
    if unfinished or deal is None:
        return unfinished
    return actions.create_race(
        deal,
        player_key,
        mode=Race.SOLO,
        name=name,
        deal_hidden=True,
        verifies=held,
    )


def ghost_race(day, ghost, player_key, name):
    """This player's unfinished race against `ghost` (an Entry) on the deal of `day`
    (a DailyDeal), or a new one: played alone, like a solo game. Its entry is no
    daily attempt (no `Entry.daily_date`), so it never ranks; the race carries the
    day so that today's code stays hidden (game/deals/secrecy.py)."""
    return _ghost_race(ghost, day.deal, day.date, player_key, name)


def recorded_race(ghost, player_key, name):
    """This player's unfinished race against `ghost`, a recorded game of any race (the
    quick racer's while alone: game/lobby/recorded.py), or a new one on its deal, which
    carries the recorded game's day when it was a daily attempt."""
    return _ghost_race(ghost, ghost.race.deal, ghost.race.daily_date, player_key, name)


def _ghost_race(ghost, deal, daily_date, player_key, name):
    mine = Race.objects.filter(mode=Race.GHOST, ghost_of=ghost, entries__player_key=player_key)
    return _unfinished(mine) or actions.create_race(
        deal, player_key, mode=Race.GHOST, name=name, daily_date=daily_date, ghost_of=ghost
    )


def _unfinished(mine):
    """The first of these races not finished and with time left, or None."""
    now = timezone.now()
    return next(
        (r for r in mine.exclude(status=Race.FINISHED) if r.ends_at is None or r.ends_at > now),
        None,
    )


def daily_race(daily, player_key, name):
    """This player's one attempt at a day's deals, finished or not: on the ranked deal
    for an account that may rank, on the guests' deal otherwise (`attempt_deal`).

    Two requests at once (two tabs, two processes) must not make two attempts.
    An account's one attempt a day is a database constraint on its entries
    (`one_daily_attempt_per_account`): the second insert fails and finds the first.
    A guest's, by a lock on this player's attempt of the day held while looking and
    creating: only the same player's requests wait for each other, never the day's
    other players (the rush at the reset, docs/performance.md "The rush")."""
    found = daily_attempt(daily, player_key)
    if found is not None:
        return found
    deal = attempt_deal(daily, player_key)  # may pick the guests' deal: before the lock
    try:
        with transaction.atomic():
            _hold_attempt(daily, player_key)
            return daily_attempt(daily, player_key) or actions.create_race(
                deal, player_key, mode=Race.DAILY, name=name, daily_date=daily.date
            )
    except IntegrityError:
        return daily_attempt(daily, player_key)


def _hold_attempt(daily, player_key):
    """Until the transaction ends, this player's attempt at `daily` is theirs to look for
    and create: on PostgreSQL a lock on (day, player key) alone; elsewhere (SQLite, one
    writer at a time anyway) the day's row."""
    if connection.vendor != "postgresql":
        DailyDeal.objects.select_for_update().get(pk=daily.pk)
        return
    digest = hashlib.sha256(f"daily:{daily.date}:{player_key}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
        )


def daily_attempt(daily, player_key):
    """This player's attempt at a day's deal (a race), or None before they begin one."""
    return Race.objects.filter(
        mode=Race.DAILY, daily_date=daily.date, entries__player_key=player_key
    ).first()
