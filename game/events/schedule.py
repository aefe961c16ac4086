"""
Events staff set up: the deals an event may hold, and the recurring schedule.

An event's deals must be proven winnable by the solver (`Deal.verdict`): a race that
cannot be won wastes everyone's evening. A recurring schedule (`EventSchedule`, e.g.
every day at 20:00 UTC, or every Saturday at 18:00 UTC) has its coming events created
by `manage.py daily_upkeep` (`create_coming`), on its weekdays only, each with deals
drawn at random and kept only once the solver proves them winnable; never twice for
one start, whoever runs it (a unique constraint on schedule and start).

An event never holds a daily deal whose day is not over, ranked or guests', nor one a
coming day may pick (`check_daily`): its players would see the day's deal, and its
end would publish the code while the day runs on (docs/fair-play.md).
"""

import logging
from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from game.base import days
from game.base.errors import GameError
from game.daily.schedule import COMING_DAYS
from game.deals import codes, daily
from game.models import Event, EventDeal, EventSchedule
from game.solver.verdicts import analyse_deal_row

logger = logging.getLogger(__name__)
SOLVE_S = 1.0
"""Solver budget per drawn deal."""
TRIES = 20
"""Deals drawn per deal wanted before giving up."""


def check_deal(deal):
    """GameError unless the solver proved `deal` winnable (the admin's inline says it)."""
    if deal.verdict == "not_winnable":
        raise GameError("not_winnable", f"{deal.code} cannot be won: the solver proved it")
    if deal.verdict != "winnable":
        raise GameError("unconfirmed", f"{deal.code} is not proven winnable: analyse it first")


def check_daily(deal, ends_at=None):
    """GameError if `deal` is, or may become, a daily deal (ranked or guests') of a day from
    today to the event's end (`ends_at`), or to the staff calendar's horizon if later."""
    last = days.today() + timedelta(days=COMING_DAYS)
    if ends_at is not None:
        last = max(last, ends_at.astimezone(UTC).date())
    found = daily.days_of(deal, last)
    if found:
        message = f"{deal.code} is or may be the daily deal of {found[0]}: pick another deal"
        raise GameError("daily_deal", message)


def _usable(deal):
    try:
        check_daily(deal)
    except GameError:
        return False
    return deal.verdict == "winnable"


def winnable_deals(count):
    """`count` numbered deals drawn at random, each proven winnable by the solver and no
    daily deal (`check_daily`)."""
    found = []
    for _ in range(count * TRIES):
        deal = codes.random_deal()
        if deal.verdict is None:
            deal = analyse_deal_row(deal, SOLVE_S)
        if deal not in found and _usable(deal):
            found.append(deal)
            if len(found) == count:
                return found
    raise RuntimeError(f"only {len(found)} winnable deals in {count * TRIES} draws")


def create_coming(days=2, now=None):
    """The events of every active schedule starting within `days` days, on its weekdays,
    that do not exist yet; returns how many were created."""
    now = now or timezone.now()
    made = 0
    for schedule in EventSchedule.objects.filter(active=True):
        for ahead in range(days + 1):
            day = now.date() + timedelta(days=ahead)
            start = datetime.combine(day, schedule.at, tzinfo=UTC)
            if not schedule.runs_on(day) or not now < start <= now + timedelta(days=days):
                continue
            if _create(schedule, start):
                made += 1
    return made


def _create(schedule, start):
    if Event.objects.filter(schedule=schedule, starts_at=start).exists():
        return False
    deals = winnable_deals(schedule.deals)
    try:
        with transaction.atomic():
            event = Event.objects.create(
                title=schedule.title,
                starts_at=start,
                minutes=schedule.minutes,
                rated=schedule.rated,
                schedule=schedule,
            )
            EventDeal.objects.bulk_create(
                EventDeal(event=event, index=i, deal=deal) for i, deal in enumerate(deals)
            )
    except IntegrityError:  # made meanwhile by another run
        return False
    logger.info("event %s created from schedule %s", event, schedule.pk)
    return True
