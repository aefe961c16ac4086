"""
The daily deals: each UTC day, one winnable numbered deal that ranks, the same for
every account, and one for guests.

The day's candidates come from an HMAC of the date under a server secret
(HALFMOON_DAILY_SECRET), so every process proposes the same deals in the same
order, and nobody without the secret can compute them: a public rule (a plain
hash of the date) let a script predict the day's deal offline. The first
candidate known (or, within a small solver budget, shown) to be winnable is
stored as that day's `DailyDeal` on first request. The unique date settles a
race between two processes. Staff can schedule a coming day's deal ahead in the
admin's calendar (game/daily/schedule.py); such a day is never picked.

Guests play a second deal of the day, drawn the same way under another label and
stored with the day on the first guest's attempt: a guest cookie (any number of
them) is no look at the ranked deal before an account's ranked attempt
(docs/fair-play.md). An account too new to rank plays it too
(`accounts.may_rank`).

A daily deal is never an event's, either way: an event refuses a deal that is or may
become a day's from today on (`days_of`, game/events/schedule.py), and a day's pick
passes over every deal an event holds (`open_codes`), since an event publishes its
codes when it ends.
"""

import datetime
import hashlib
import hmac
import logging
from typing import NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction

from game.base import days, sql
from game.engine import format_code
from game.engine.deals import MAX_NUMBER
from game.models import DailyDeal, Deal, EventDeal
from game.players import accounts
from game.solver import pool
from game.solver.verdicts import analyse_job, store

logger = logging.getLogger(__name__)
CANDIDATES = 12
RANKED, GUESTS = "ranked", "guests"
LABELS = {RANKED: "HM1-daily", GUESTS: "HM1-daily-guests"}
"""What each board's candidates are an HMAC of, with the date and the index."""


def day_of(date):
    """The `DailyDeal` of a past day or today (chosen now if need be); None otherwise.
    Without its explorer tree, read only when the explorer asks for it: a day's stored
    tree holds every game's line (megabytes at thousands of games), and every view of
    that day's board read it (then for its rows, now for its ghost offer)."""
    day = DailyDeal.objects.select_related("deal").defer("explorer").filter(date=date).first()
    if day is None and date == days.today():
        day = daily_deal(date)
    return day


def has_day(date):
    """Whether `date` has a stored day: its board exists (a new install has none before
    its first day)."""
    return DailyDeal.objects.filter(date=date).exists()


class DealCode(NamedTuple):
    """A deal as a board reads it: its code."""

    code: str


class BoardDay(NamedTuple):
    """A day's deals as its board reads them, named as a `DailyDeal`'s are (what the
    board, secrecy.daily_code and attempts.finish_expired read of a day)."""

    date: datetime.date
    deal_id: int
    guest_deal_id: int | None
    top_checked_at: datetime.datetime | None
    deal: DealCode


_BOARD_DAY = (
    "SELECT dd.date, dd.deal_id, dd.guest_deal_id, dd.top_checked_at, d.code"
    " FROM game_dailydeal dd"
    " JOIN game_deal d ON d.id = dd.deal_id WHERE dd.date = %s"
)
_BOARD_DAY_COLUMNS = sql.Columns(
    DailyDeal, "date", "deal_id", "guest_deal_id", "top_checked_at", "deal__code"
)


def board_day(date):
    """`day_of(date)` as a day's board reads it (`BoardDay`), by one statement written
    once: the ORM built, compiled and read it into two models on every view."""
    found = _BOARD_DAY_COLUMNS.fetch(_BOARD_DAY, [date])
    if found:
        *day, code = found[0]
        return BoardDay(*day, DealCode(code))
    day = day_of(date)  # today's, chosen now; or None
    if day is None:
        return None
    return BoardDay(
        day.date, day.deal_id, day.guest_deal_id, day.top_checked_at, DealCode(day.deal.code)
    )


def candidates(date, board=RANKED):
    """The day's candidate deal codes for one board (RANKED or GUESTS), best first: fixed
    forever for a date and the secret, the same on every process, unknown to whoever
    lacks the secret."""
    secret = settings.HALFMOON_DAILY_SECRET.encode()
    for index in range(CANDIDATES):
        label = f"{LABELS[board]}:{date.isoformat()}:{index}".encode()
        digest = hmac.new(secret, label, hashlib.sha256).digest()
        yield format_code(int.from_bytes(digest[:8], "big") % (MAX_NUMBER + 1))


def daily_deal(date=None):
    """The `DailyDeal` of `date` (default today, UTC), chosen now if no one has yet."""
    date = date or days.today()
    existing = DailyDeal.objects.select_related("deal").filter(date=date).first()
    if existing:
        return existing
    deal = _pick(date)
    try:
        with transaction.atomic():
            return DailyDeal.objects.create(date=date, deal=deal)
    except IntegrityError:
        return DailyDeal.objects.select_related("deal").get(date=date)


def guests_deal(day):
    """The guests' deal of `day` (a DailyDeal), picked now if no one has yet: the first
    winnable of the day's GUESTS candidates, never the ranked deal itself."""
    if day.guest_deal_id is None:
        codes = [code for code in open_codes(day.date, GUESTS) if code != day.deal.code]
        deal = _pick(day.date, codes)
        DailyDeal.objects.filter(pk=day.pk, guest_deal__isnull=True).update(guest_deal=deal)
        day.refresh_from_db(fields=["guest_deal"])
    return day.guest_deal


def attempt_deal(day, player_key):
    """The deal of a player's one attempt at `day`: the ranked deal for an account that
    may rank, the guests' deal for everyone else."""
    return day.deal if plays_ranked(player_key) else guests_deal(day)


def plays_ranked(player_key):
    """Whether this player's attempt today would be on the ranked deal: an account that
    may rank (`accounts.may_rank`)."""
    user = accounts.user_for(player_key)
    return user is not None and accounts.may_rank(user)


def on_ranked_deal(race):
    """Whether a race of a day (an attempt, a ghost race) is on that day's ranked deal."""
    return DailyDeal.objects.filter(date=race.daily_date, deal_id=race.deal_id).exists()


def open_codes(date, board=RANKED):
    """The day's `candidates` an event does not hold: an event shows its codes once over,
    so its deals are no secret to pick a day's from."""
    codes = list(candidates(date, board))
    held = set(EventDeal.objects.filter(deal__code__in=codes).values_list("deal__code", flat=True))
    return [code for code in codes if code not in held] or codes


def days_of(deal, last):
    """The days from today on whose ranked or guests' deal `deal` is, or may be: the stored
    deal of any day to come, or, for a day up to `last` whose deal is not picked yet, any
    of its candidates."""
    first = days.today()
    stored = {day.date: day for day in DailyDeal.objects.filter(date__gte=first)}
    found = {date for date, day in stored.items() if deal.pk in (day.deal_id, day.guest_deal_id)}
    for n in range((last - first).days + 1):
        date = first + datetime.timedelta(days=n)
        day = stored.get(date)
        for board, picked in ((RANKED, day and day.deal_id), (GUESTS, day and day.guest_deal_id)):
            if not picked and deal.code in candidates(date, board):
                found.add(date)
    return sorted(found)


def _pick(date, codes=None):
    codes = open_codes(date) if codes is None else codes
    chosen = Deal.for_code(choose(codes, lambda code: _verdict(Deal.for_code(code))))
    if chosen.verdict != "winnable":
        logger.warning("daily deal %s: no candidate proven winnable; using %s", date, chosen)
    return chosen


def _verdict(deal):
    return deal.verdict or _solve(deal)


def choose(codes, verdict_of):
    """The code a day gets among its candidate `codes` (best first): the first one
    winnable; failing that the first whose verdict stayed unknown; failing that the
    first. `verdict_of(code)` may answer None (not analysed): then which candidate
    wins is not known yet, and so is the answer (the staff's calendar predicts days
    this way from stored verdicts alone)."""
    codes = list(codes)
    fallback = None
    for code in codes:
        verdict = verdict_of(code)
        if verdict is None:
            return None
        if verdict == "winnable":
            return code
        if verdict != "not_winnable" and fallback is None:
            fallback = code
    return fallback or codes[0]


def _solve(deal):
    """Analyse a candidate within the daily budget, in the solver pool (every request
    of the day's first moments waits on the same job); the verdict and difficulty are
    stored."""
    job = (deal.code, None, settings.HALFMOON_DAILY_SOLVE_S)
    _, fields = pool.submit(("analyse", *job), analyse_job, job).result()
    return store(deal, fields).verdict
