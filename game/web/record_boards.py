"""
The records boards' pages: all time (/daily/all-time/<board>/), an ISO week
(/daily/week/2026-W48/<board>/) and a calendar month (/daily/month/2026-11/<board>/),
and the month's daily winners (/daily/month/2026-11/). The rows are
game/daily/record_boards.py's, the month's days game/daily/month_winners.py's; here, the inputs, the
tabs and the links around a board.
"""

import datetime

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.base import days, links
from game.base.inputs import board_view, month_or_404, page_number, week_or_404
from game.daily import month_winners, record_boards
from game.daily.record_boards import BOARDS, PERIOD_BOARDS, week_name
from game.friends import follows
from game.models import ALL_TIME_START, DailyDeal, Record
from game.results.records import week_start


def circle_of(request, view):
    """The accounts a Friends view shows (None: everyone's); a guest's friends: none."""
    if view != "friends":
        return None
    return follows.circle(request.user) if request.user.is_authenticated else []


def render_board(request, period, start, board, context):
    """A records board's page: the rows, the viewer's own row below them, the tabs."""
    page, view = page_number(request), board_view(request)
    viewer = request.user.pk if request.user.is_authenticated else None
    found = record_boards.records_page(period, start, board, page, viewer, circle_of(request, view))
    shown = found["rows"] + ([found["you"]] if found["you"] and not found["you_on_page"] else [])
    context = {
        "board": board,
        "title": BOARDS[board][0],
        "page": page,
        "view": view,
        "month": days.today(),
        "shown": shown,
        **found,
        **context,
    }
    return render(request, "game/alltime.html", context)


def period_tabs(name, key, board):
    return [
        (links.route(name, key, other), BOARDS[other][0], other == board) for other in PERIOD_BOARDS
    ]


@require_safe
def all_time(request, board="wins"):
    """/daily/all-time/<board>/: daily deals won, longest streaks or best times."""
    if board not in BOARDS:
        raise Http404(gettext("There is no such board."))
    tabs = [
        (links.route("game:all-time-board", name), title, name == board)
        for name, (title, *_) in BOARDS.items()
    ]
    context = {"heading": gettext("All-time board"), "tabs": tabs, "all_time": True}
    return render_board(request, Record.ALL, ALL_TIME_START, board, context)


@require_safe
def week(request, week, board="wins"):
    """/daily/week/<YYYY-Www>/<board>/: a week's daily deals won or best times."""
    monday = week_or_404(week)
    if board not in PERIOD_BOARDS:
        raise Http404(gettext("There is no such board."))
    if monday > days.today():
        raise Http404(gettext("This week has not begun."))
    step = datetime.timedelta(days=7)
    context = {
        "heading": gettext("Week %(week)s") % {"week": week_name(monday)},
        "period_start": monday,
        "period_end": monday + datetime.timedelta(days=6),
        "tabs": period_tabs("game:week-board", week_name(monday), board),
        "previous": links.route("game:week-board", week_name(monday - step), board),
        "next": links.route("game:week-board", week_name(monday + step), board)
        if monday + step <= days.today()
        else None,
    }
    return render_board(request, Record.WEEK, monday, board, context)


@require_safe
def this_week(request):
    """/daily/week/: the board of the week today is in."""
    return redirect("game:week-board", week_name(week_start(days.today())), "wins")


@require_safe
def month(request, month):
    """/daily/month/<YYYY-MM>/: each day of the month with its winner so far."""
    first = month_or_404(month)
    today = days.today()
    if first > today:
        raise Http404(gettext("There was no daily deal in %(month)s.") % {"month": month[:7]})
    earlier = DailyDeal.objects.filter(date__lt=first).exists()
    following = month_winners.next_month(first)
    context = {
        "month": first,
        "days": month_winners.chart(month_winners.days_of(first, today)),
        "previous_month": month_winners.previous_month(first) if earlier else None,
        "next_month": following if following <= today else None,
    }
    return render(request, "game/month.html", context)


@require_safe
def month_board(request, month, board):
    """/daily/month/<YYYY-MM>/<board>/: the month's daily deals won or best times."""
    first = month_or_404(month)
    if board not in PERIOD_BOARDS:
        raise Http404(gettext("There is no such board."))
    if first > days.today():
        raise Http404(gettext("There was no daily deal in %(month)s.") % {"month": month[:7]})
    key, following = f"{first:%Y-%m}", month_winners.next_month(first)
    context = {
        "heading": gettext("Month %(month)s") % {"month": key},
        "period_start": first,
        "period_end": following - datetime.timedelta(days=1),
        "tabs": period_tabs("game:month-board", key, board),
        "previous": links.route(
            "game:month-board", f"{month_winners.previous_month(first):%Y-%m}", board
        ),
        "next": links.route("game:month-board", f"{following:%Y-%m}", board)
        if following <= days.today()
        else None,
    }
    return render_board(request, Record.MONTH, first, board, context)
