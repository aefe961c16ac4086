"""
A quick racer alone in the queue: a recorded game to race while they wait.

With nobody else in the queue a quick race never forms. Once a player has waited
HALFMOON_QUICK_ALONE_S with nobody else there (`due`), the lobby offers them a
ghost race (`offer`, then `race`): a recorded win of someone else, from a
finished race or quick race, or a past day's daily attempt, judged clean. The
player keeps their seat: the ghost race's page goes on polling the queue
(frontend/js/quickwait.js), and a quick race that forms still takes them.

Never a game on a deal that is a daily deal today or later, ranked or guests':
the ghost race shows its deal's code, and today's ghosts are raced only after
one's own ranked attempt (game/daily/ghosts.py). Which deals those are is read
from the day's row, made first (the lobby makes it anyway).
"""

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from game.base import days
from game.base.errors import GameError
from game.deals import daily
from game.lobby import alone
from game.models import DailyDeal, Entry, QuickSeat, Race

SOURCES = (Race.RACE, Race.QUICK, Race.DAILY)
"""The games a recorded one may come from: raced or the day's attempt (no solo game)."""


def due(player_key, waiting, now=None):
    """Whether to offer this waiting player a recorded game: alone in the queue, and in
    it for HALFMOON_QUICK_ALONE_S (the time since their seat was taken)."""
    if waiting != 1:
        return False
    since = QuickSeat.objects.filter(player_key=player_key, race__isnull=True)
    since = since.values_list("since", flat=True).first()
    if since is None:
        return False
    waited = ((now or timezone.now()) - since).total_seconds()
    return waited >= settings.HALFMOON_QUICK_ALONE_S


def _recorded():
    """Every game that may be offered: a clean win, its race over, on no deal that is
    a daily deal today or later, and a daily attempt only from a past day."""
    daily.daily_deal()
    coming = DailyDeal.objects.filter(date__gte=days.today())
    secret = list(coming.values_list("deal_id", flat=True))
    secret += [deal for deal in coming.values_list("guest_deal_id", flat=True) if deal]
    past_daily = Q(race__mode=Race.DAILY, race__daily_date__lt=days.today())
    return (
        Entry.objects.filter(status=Entry.WON, review__in=Entry.COUNTED)
        .filter(race__status=Race.FINISHED, race__mode__in=SOURCES)
        .filter(~Q(race__mode=Race.DAILY) | past_daily)
        .exclude(race__deal_id__in=secret)
        .select_related("race__deal")
    )


def offer(player_key):
    """The recorded game offered to this player, newest first and someone else's, as
    {id, name, score, moves, time_ms, date}; None while there is none."""
    newest = (F("finished_at").desc(nulls_last=True), "-id")  # PostgreSQL puts NULL first
    found = _recorded().exclude(player_key=player_key).order_by(*newest).first()
    if found is None:
        return None
    shown = ("id", "name", "score", "moves", "time_ms")
    date = found.race.daily_date
    return {**{field: getattr(found, field) for field in shown}, "date": date and date.isoformat()}


def race(player_key, recorded_id, name):
    """This player's race against the recorded game `recorded_id`: an unfinished one, or
    a new one. GameError when it is no game that may be offered."""
    if not isinstance(recorded_id, int) or isinstance(recorded_id, bool):
        raise GameError("bad_field", "ghost is the id of the recorded game offered")
    ghost = _recorded().filter(pk=recorded_id).first()
    if ghost is None:
        raise GameError("not_found", "no recorded game with this id may be raced")
    return alone.recorded_race(ghost, player_key, name)
