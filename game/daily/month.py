"""
The month view of the daily leaderboards (/daily/month/2026-11/): each day of a
month with its ranked winner so far, a link to that day's board, and a bar of
the winning times, so a player sees at a glance who took which day; and the
month's boards (/daily/month/2026-11/wins/, /times/: game/daily/boards.py).

Each day's winner is read in the same statement as the days
(`leaderboards.day_winners`); a day's code is shown only once the day is over
(game/deals/secrecy.py), a name staff hid is not (game/players/moderation.py), and days
still to come are not listed.
"""

import datetime

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.base import days, links
from game.base.inputs import month_or_404
from game.daily import boards, leaderboards
from game.deals import secrecy
from game.models import DailyDeal, Record
from game.players import moderation


def next_month(first):
    return (first + datetime.timedelta(days=32)).replace(day=1)


def previous_month(first):
    return (first - datetime.timedelta(days=1)).replace(day=1)


def days_of(first, today):
    """One line per day of the month up to today: the day's deal, code and winner."""
    last = min(next_month(first) - datetime.timedelta(days=1), today)
    found = {day.date: (day, winner) for day, winner in leaderboards.day_winners(first, last)}
    lines = []
    for offset in range((last - first).days + 1):
        date = first + datetime.timedelta(days=offset)
        day, winner = found.get(date, (None, None))
        lines.append(
            {
                "date": date,
                "played": day is not None,
                "code": secrecy.daily_code(day) if day else None,
                "today": date == today,
                "winner": winner,
                "name": winner.name if winner else None,
            }
        )
    moderation.mask((line, line["winner"].user_id) for line in lines if line["winner"])
    return lines


def chart(lines):
    """The winning time of each day as a share of the month's slowest (0-1), for the bars."""
    slowest = max((line["winner"].time_ms for line in lines if line["winner"]), default=0)
    return [
        {**line, "share": line["winner"].time_ms / slowest if line["winner"] and slowest else 0}
        for line in lines
    ]


@require_safe
def month(request, month):
    first = month_or_404(month)
    today = days.today()
    if first > today:
        raise Http404(gettext("There was no daily deal in %(month)s.") % {"month": month[:7]})
    earlier = DailyDeal.objects.filter(date__lt=first).exists()
    context = {
        "month": first,
        "days": chart(days_of(first, today)),
        "previous_month": previous_month(first) if earlier else None,
        "next_month": next_month(first) if next_month(first) <= today else None,
    }
    return render(request, "game/month.html", context)


@require_safe
def month_board(request, month, board):
    """/daily/month/<YYYY-MM>/<board>/: the month's daily deals won or best times."""
    first = month_or_404(month)
    if board not in boards.PERIOD_BOARDS:
        raise Http404(gettext("There is no such board."))
    if first > days.today():
        raise Http404(gettext("There was no daily deal in %(month)s.") % {"month": month[:7]})
    key, following = f"{first:%Y-%m}", next_month(first)
    context = {
        "heading": gettext("Month %(month)s") % {"month": key},
        "period_start": first,
        "period_end": following - datetime.timedelta(days=1),
        "tabs": boards.period_tabs("game:month-board", key, board),
        "previous": links.route("game:month-board", f"{previous_month(first):%Y-%m}", board),
        "next": links.route("game:month-board", f"{following:%Y-%m}", board)
        if following <= days.today()
        else None,
    }
    return boards.render_board(request, Record.MONTH, first, board, context)
