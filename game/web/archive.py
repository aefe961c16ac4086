"""
The archive of past daily deals: /daily/archive/ (this month) and
/daily/archive/<YYYY-MM>/, each past day marked as the reader left it with its winner
and a link to its board; and /daily/<date>/play/, a POST that plays a day that is over
later, unranked (game/daily/archive.py, game/lobby/alone.py).

The reader is an account (its entries, whatever cookie it played them under) or a
guest (the entries of this browser's player key). Today's deal and the days to come
are never offered to play here, and a date or month that does not parse, or names
no past day, is a 404 page that says why.
"""

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from game.base import days
from game.base.inputs import date_or_404, month_or_404
from game.daily import archive
from game.daily.month_winners import next_month, previous_month
from game.habits import calendar
from game.lobby import alone
from game.models import DailyDeal, Entry
from game.players import identity
from game.web.pages import too_many_games


def readers_entries(request):
    """The reader's entries: an account's, else this browser's as a guest."""
    if request.user.is_authenticated:
        return Entry.objects.filter(user=request.user)
    return Entry.objects.filter(player_key=identity.viewer_key(request.session))


def month_context(request, first, today, winners=None, mine=None):
    """The month's lines and calendar as the reader sees them (the archive, /daily/;
    `winners`: archive.month_winners', when the page has them; `mine`: the reader's
    entries, when the page knows them)."""
    mine = readers_entries(request) if mine is None else mine
    lines = archive.month_lines(first, today, mine, winners)
    return {"lines": lines, "calendar": archive.month_calendar(first, today, lines)}


@require_safe
def archive_page(request, month=None):
    today = days.today()
    first = month_or_404(month) if month else calendar.month_of(today)
    first_day = DailyDeal.objects.order_by("date").values_list("date", flat=True).first()
    first_day = first_day or today  # a new site: this month, empty, is the archive
    if first > today or first < calendar.month_of(first_day):
        shown = month[:7] if month else f"{first:%Y-%m}"
        raise Http404(gettext("There was no daily deal in %(month)s.") % {"month": shown})
    earlier = previous_month(first) >= calendar.month_of(first_day)
    context = {
        "month": first,
        **month_context(request, first, today),
        "previous_month": previous_month(first) if earlier else None,
        "next_month": next_month(first) if next_month(first) <= today else None,
    }
    return render(request, "game/archive.html", context)


@require_POST
def play_later(request, date):
    """A day that is over played now, unranked: this player's game on it, found again or
    begun (rate-limited like any game opened)."""
    date = date_or_404(date)
    if date >= days.today():
        reason = gettext("Only a day that is over can be played later: %(date)s is not one.")
        raise Http404(reason % {"date": date.isoformat()})
    day = DailyDeal.objects.select_related("deal").filter(date=date).first()
    if day is None:
        raise Http404(gettext("There was no daily deal on %(date)s.") % {"date": date.isoformat()})
    key = identity.player_key(request.session)
    refused = too_many_games(request, key)
    if refused:
        return refused
    race = alone.later_race(day, key, identity.remembered_name(request.session))
    return redirect(race.get_absolute_url())
