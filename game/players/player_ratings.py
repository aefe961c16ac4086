"""
Ratings as players read them: an account's rating, rank and rated record, its history
(the profile's chart, the API), and the rating board's lines (the top 100 and your own;
its page, /ratings/, is game/web/rating_board.py's), all from stored rows
(game/results/rated.py writes them). The board reads the `rating_board` partial index of
`Account`; one's own rank is the count of accounts on the points above
(game/models/rank_counts.py) and a count among one's own point's on the same index.
"""

import datetime
import math

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from game.models import Account, RatingChange, rank_counts
from game.players import moderation
from game.ratings import glicko2, ranks

BOARD = 100
"""Lines on the rating board."""
HISTORY = 100
"""Rated games on a profile's chart and in the API, the latest."""
IDLE_PERIOD = datetime.timedelta(days=1)
"""A rating period without a rated game: the deviation grows once per whole day since
the latest (Glicko-2's step 6, `glicko2.idle`), so an account back after three months
is provisional again (docs/ratings.md)."""

RANK_NAMES = {
    "new_moon": gettext_lazy("New Moon"),
    "crescent": gettext_lazy("Crescent"),
    "first_quarter": gettext_lazy("First Quarter"),
    "gibbous": gettext_lazy("Gibbous"),
    "full_moon": gettext_lazy("Full Moon"),
    "eclipse": gettext_lazy("Eclipse"),
}
"""Each rank of game/ratings/ranks.py in the reader's language (docs/ratings.md)."""


def current(account, at=None):
    """The account's `glicko2.Rating` at `at` (now): as stored, its deviation grown by
    each whole `IDLE_PERIOD` since its latest rated race."""
    stored = glicko2.Rating(account.rating, account.deviation, account.volatility)
    if account.rated_at is None:
        return stored
    return glicko2.idle(stored, ((at or timezone.now()) - account.rated_at) // IDLE_PERIOD)


def rating_of(user):
    """An account's rating as shown: numbers, provisional mark, rank, rated record."""
    account = Account.objects.filter(user=user).first()
    now = current(account) if account else glicko2.Rating()
    rating, deviation = now.rating, now.deviation
    code = ranks.rank(rating)
    return {
        "rating": round(rating),
        "deviation": round(deviation),
        "volatility": now.volatility,
        "provisional": ranks.provisional(deviation),
        "shown": ranks.shown(rating, deviation),
        "rank": code,
        "rank_name": str(RANK_NAMES[code]),
        "rated": record(user),
    }


def counted_changes(user):
    """An account's rating changes that counted (a game given back is none), oldest first."""
    return RatingChange.objects.filter(user=user).exclude(wins=0, losses=0, draws=0)


def record(user):
    """Rated games won (more opponents beaten than lost to) and lost (the reverse)."""
    return counted_changes(user).aggregate(
        won=Count("id", filter=Q(wins__gt=F("losses"))),
        lost=Count("id", filter=Q(wins__lt=F("losses"))),
    )


def history(user):
    """The latest HISTORY rated games, oldest first: when, the rating after, the change,
    and which: a race's room, or a rated event's id and title."""
    rows = counted_changes(user).values_list(
        *("at", "race__room", "event_entry__event_id", "event_entry__event__title"),
        *("rating_before", "rating_after", "deviation_after"),
    )  # tuples, not models: a hundred models were half the history's time
    return [
        {
            "at": at,
            "room": room,
            "event": {"id": event_id, "title": event_title} if event_id else None,
            "rating": round(after),
            "change": round(after) - round(before),
            "provisional": ranks.provisional(deviation),
        }
        for at, room, event_id, event_title, before, after, deviation in reversed(
            rows.order_by("-at", "-id")[:HISTORY]
        )
    ]


def _line(rank, account, viewer):
    deviation = current(account).deviation
    line = {
        "rank": rank,
        "name": account.username,
        "rating": round(account.rating),
        "deviation": round(deviation),
        "provisional": ranks.provisional(deviation),
        "shown": ranks.shown(account.rating, deviation),
        "rank_name": str(RANK_NAMES[ranks.rank(account.rating)]),
    }
    moderation.hide(line, account.name_hidden)  # read with the account's row
    line["you"] = account.user_id == getattr(viewer, "pk", None)
    return line


def board(viewer=None):
    """(the top BOARD lines, the viewer's own line or None): accounts with a counted
    rated game, best first, hidden names masked."""
    rated = Account.objects.filter(rated_games__gt=0)
    named = rated.annotate(username=F("user__username"))
    top = list(named.order_by("-rating", "id")[:BOARD])
    lines = [_line(rank, account, viewer) for rank, account in enumerate(top, 1)]
    mine = named.filter(user_id=viewer.pk).first() if viewer else None
    you = _line(_rank_of(rated, mine), mine, viewer) if mine else None
    return lines, you


def _rank_of(rated, mine):
    """An account's rank on the board: the accounts on whole points above its own (their
    counts: game/models/rank_counts.py), then those of its point rated higher, and those
    tied with a smaller id, plus one — the last two one count on the `rating_board`
    index among some tens of rows."""
    point = math.floor(mine.rating)
    same = rated.filter(rating__gte=point, rating__lt=point + 1)
    ahead = Q(rating__gt=mine.rating) | Q(rating=mine.rating, id__lt=mine.id)
    tied_ahead, params = same.filter(ahead).values("pk").query.sql_with_params()
    return rank_counts.rank("rating", point, tied_ahead, params)


def user_named(username):
    """The account of that username, or None."""
    return get_user_model().objects.filter(username=username).first()
