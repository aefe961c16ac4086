"""
The staff's deal calendar: which deal each day gets, and the rules for changing it.

A day may be changed until it starts (UTC midnight, `days.today()`): from then
on players may have played it, so today and every day before are history,
refused here whatever page the request came from. Staff never schedule an
unwinnable daily deal: a deal the solver proved not winnable is refused, and one
whose verdict is unknown — or not analysed yet, whose analysis then starts off the
request path (game/solver/background.py) — needs their explicit confirmation.

A day no one scheduled is picked on its first request (game/deals/daily.py). The
calendar predicts that pick with the same rule (`daily.choose`, over the candidates
no event holds) from the stored verdicts of the day's candidates alone; until they
are analysed (`manage.py analyse_deals --daily-candidates 28`, off the request
path) the day reads "picked automatically at midnight". A deal an event holds is
never scheduled: the event's end shows its code.
"""

import datetime
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext

from game.base import days
from game.base.errors import GameError
from game.deals import codes, daily
from game.models import DailyDeal, Deal, Entry, EventDeal
from game.players import profiles
from game.solver import background

PAST_DAYS = 7
COMING_DAYS = 28

SCHEDULED, PICKED, PREDICTED, PENDING = "scheduled", "picked", "predicted", "pending"
"""How a day got (or will get) its deal: chosen by staff; picked automatically; to be
picked automatically, this deal as far as the stored verdicts tell; to be picked, not
known yet."""


@dataclass
class Day:
    date: datetime.date
    kind: str
    deal: Deal | None
    scheduled_by: object = None
    editable: bool = False
    results: dict = field(default_factory=dict)


def editable(date):
    """Whether a day's deal may still change: only before the day starts (UTC)."""
    return date > days.today()


def calendar_days(first=None, last=None):
    """The calendar: one `Day` from `PAST_DAYS` ago to `COMING_DAYS` ahead, in order."""
    today = days.today()
    first = first or today - datetime.timedelta(days=PAST_DAYS)
    last = last or today + datetime.timedelta(days=COMING_DAYS)
    dates = [first + datetime.timedelta(days=n) for n in range((last - first).days + 1)]
    stored = {
        day.date: day
        for day in DailyDeal.objects.filter(date__range=(first, last)).select_related(
            "deal", "scheduled_by"
        )
    }
    open_dates = [date for date in dates if date not in stored and date >= today]
    predicted = predictions(open_dates)
    calendar = []
    for date in dates:
        day = stored.get(date)
        if day is not None:
            kind = SCHEDULED if day.scheduled_by_id or date > today else PICKED
            entry = Day(date, kind, day.deal, day.scheduled_by)
        elif date in open_dates:
            deal = predicted.get(date)
            entry = Day(date, PREDICTED if deal else PENDING, deal)
        else:
            entry = Day(date, PICKED, None)  # a past day no one played
        entry.editable = editable(date)
        calendar.append(entry)
    shown = results_of([day.deal for day in calendar if day.deal])
    for day in calendar:
        if day.deal:
            day.results = shown[day.deal.pk]
    return calendar


def predictions(dates):
    """{date: the Deal it will be picked} for the dates whose pick the stored verdicts
    of its candidates already decide (one query for all of them)."""
    codes = {date: list(daily.candidates(date)) for date in dates}
    rows = Deal.objects.filter(code__in=[code for day in codes.values() for code in day])
    known = {deal.code: deal for deal in rows}
    held = set(EventDeal.objects.filter(deal__in=rows).values_list("deal__code", flat=True))
    codes = {date: [c for c in day if c not in held] or day for date, day in codes.items()}
    verdicts = {code: deal.verdict for code, deal in known.items()}
    found = {date: daily.choose(day, verdicts.get) for date, day in codes.items()}
    return {date: known[code] for date, code in found.items() if code is not None}


def results_of(deals):
    """{deal id: played, won, win rate, best time} over every game on each deal;
    disqualified results never count, flagged ones not for the best time."""
    ids = {deal.pk for deal in deals}
    rows = (
        profiles.counted(Entry.objects.filter(race__deal_id__in=ids))
        .values("race__deal_id")
        .annotate(**profiles.TOTALS)
    )
    totals = {row.pop("race__deal_id"): row for row in rows}
    empty = {"played": 0, "won": 0, "best_ms": None}
    return {
        pk: {**totals.get(pk, empty), "win_rate": profiles.win_rate(totals.get(pk, empty))}
        for pk in ids
    }


def check(deal, confirmed):
    """Refuse a deal the solver proved not winnable, or one an event holds (its code is
    shown once the event is over); ask to confirm one it could not decide (or has not
    analysed yet, whose analysis starts now)."""
    if EventDeal.objects.filter(deal=deal).exists():
        raise GameError(
            "event_deal",
            gettext("%(code)s is an event's deal: its code is shown once the event is over.")
            % {"code": deal.code},
        )
    if deal.verdict == "not_winnable":
        raise GameError(
            "not_winnable",
            gettext("%(code)s is not winnable (the solver proved it): pick another deal.")
            % {"code": deal.code},
        )
    if deal.verdict == "winnable" or confirmed:
        return
    if deal.verdict is None:
        if background.state(deal) != background.ANALYSING:
            transaction.on_commit(lambda: background.start(deal))
        message = gettext(
            "%(code)s has not been analysed yet (its analysis has started): nobody knows"
            " whether it can be won. Confirm to schedule it anyway, or wait for the verdict."
        )
    else:
        message = gettext(
            "The solver could not decide whether %(code)s can be won. Confirm to schedule"
            " it anyway."
        )
    raise GameError("unconfirmed", message % {"code": deal.code})


def _refuse_started(date):
    if not editable(date):
        raise GameError(
            "day_started",
            gettext("%(date)s has started: its daily deal can no longer change.")
            % {"date": date.isoformat()},
        )


def schedule(date, code, staff, confirmed=False):
    """Make `code` the deal of `date`, chosen by `staff`: a day not started yet, and a
    deal that passes `check`."""
    _refuse_started(date)
    deal = codes.typed_deal(code)
    check(deal, confirmed)
    with transaction.atomic():
        day, _ = DailyDeal.objects.update_or_create(
            date=date, defaults={"deal": deal, "scheduled_by": staff}
        )
    return day


def unschedule(date):
    """Give a day not started yet back to the automatic pick."""
    _refuse_started(date)
    DailyDeal.objects.filter(date=date).delete()
