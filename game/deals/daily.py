"""
The daily deal: one winnable numbered deal per UTC day, the same for everyone.

The day's candidates come from an HMAC of the date under a server secret
(HALFMOON_DAILY_SECRET), so every process proposes the same deals in the same
order, and nobody without the secret can compute them: a public rule (a plain
hash of the date) let a script predict the day's deal offline. The first
candidate known (or, within a small solver budget, shown) to be winnable is
stored as that day's `DailyDeal` on first request. The unique date settles a
race between two processes. Staff can schedule a coming day's deal ahead in the
admin's calendar (game/daily/schedule.py); such a day is never picked.
"""

import hashlib
import hmac
import logging

from django.conf import settings
from django.db import IntegrityError, transaction

from game.base import days
from game.engine import format_code
from game.engine.deals import MAX_NUMBER
from game.models import DailyDeal, Deal
from game.solver import pool
from game.solver.verdicts import analyse_job, store

logger = logging.getLogger(__name__)
CANDIDATES = 12


def day_of(date):
    """The `DailyDeal` of a past day or today (chosen now if need be); None otherwise."""
    day = DailyDeal.objects.select_related("deal").filter(date=date).first()
    if day is None and date == days.today():
        day = daily_deal(date)
    return day


def candidates(date):
    """The day's candidate deal codes, best first: fixed forever for a date and the
    secret, the same on every process, unknown to whoever lacks the secret."""
    secret = settings.HALFMOON_DAILY_SECRET.encode()
    for index in range(CANDIDATES):
        label = f"HM1-daily:{date.isoformat()}:{index}".encode()
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


def _pick(date):
    chosen = Deal.for_code(choose(candidates(date), lambda code: _verdict(Deal.for_code(code))))
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
