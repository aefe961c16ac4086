"""
The boards read from accounts' records (`Record`, kept by game/race/records.py when a
result is judged): all time (game/daily/all_time.py), an ISO week and a calendar month
(/daily/week/2026-W48/, /daily/month/2026-11/wins/), each by daily deals won or best
time, for everyone or for one's friends (the accounts one follows, and oneself).

Every board is a range of one index (`record_wins`, `record_streaks`,
`record_times`): a page is an index scan of 51 rows, the viewer's own rank the sum of
the board's counts of the keys ahead (game/base/rank_counts.py) and a count among the
rows of one's own key on the same index, so a page costs the same at a hundred
thousand accounts as at ten. A name staff hid reads "Name
hidden", unlinked (game/players/moderation.py).
"""

import datetime
import operator
from functools import reduce

from django.contrib.auth import get_user_model
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from game.base import days, links, rank_counts
from game.base.inputs import board_view, page_number
from game.daily.leaderboards import PAGE, _ahead, _ordering
from game.friends import follows
from game.models import Record
from game.models.records import board_name
from game.players import moderation
from game.race.records import week_start

BOARDS = {
    # name: (title, the record's figure, the day it was reached, better when higher)
    "wins": (gettext_lazy("Daily deals won"), "wins", "last_won", True),
    "streaks": (gettext_lazy("Longest streak"), "streak", "streak_on", True),
    "times": (gettext_lazy("Best times"), "best_ms", "best_on", False),
}
PERIOD_BOARDS = ("wins", "times")
"""The boards of a week and of a month (a streak is an all-time figure)."""


def _order(board):
    _, value, reached, higher = BOARDS[board]
    return [(value, higher), (reached, False), ("user_id", False)]


def _records(period, start, board, among):
    """The board's records (a Friends view: `among`'s only)."""
    rows = Record.objects.filter(period=period, start=start)
    if board == "times":
        rows = rows.filter(best_ms__isnull=False)
    return rows if among is None else rows.filter(user_id__in=among)


NAMED = {"username": F("user__username"), "name_hidden": F("user__account__name_hidden")}
"""What a line reads of a record's account: its name and whether staff hid it
(game/players/moderation.py), in the statement of a page's records, not the account's
rows and models."""


def _name(records):
    """Give records read without their accounts their `NAMED` fields, in one statement:
    a Friends view numbers all its records (up to 501), and their accounts joined there
    nearly doubled PostgreSQL's time (EXPLAIN ANALYZE, bench/friends_boards.py)."""
    users = get_user_model().objects.filter(pk__in={record.user_id for record in records})
    named = users.values_list("pk", "username", "account__name_hidden")
    names = {pk: rest for pk, *rest in named}
    for record in records:
        record.username, record.name_hidden = names[record.user_id]
    return records


def _line(board, rank, record, best, viewer_id):
    _, value, reached, higher = BOARDS[board]
    figure = getattr(record, value)
    share = (figure / best if higher else best / figure) if figure and best else 0
    line = {
        "rank": rank,
        "name": record.username,
        "value": figure,
        "reached": getattr(record, reached),
        "share": share,
        "you": record.user_id == viewer_id,
    }
    moderation.hide(line, record.name_hidden)
    return line


SAME_KEY = {
    "wins": lambda record: {"wins": record.wins, "last_won": record.last_won},
    "streaks": lambda record: {"streak": record.streak, "streak_on": record.streak_on},
    "times": lambda record: {
        "best_ms__gte": record.best_ms // 1000 * 1000,
        "best_ms__lt": (record.best_ms // 1000 + 1) * 1000,
    },
}
"""The records that share one's key on each board (`Record.counted_on`)."""


def _own(rows, board, viewer_id):
    """The viewer's record on everyone's board and its rank, or (None, None): the rows
    of the keys ahead from the board's counts, then those ahead among its own key's."""
    mine = rows.annotate(**NAMED).filter(user_id=viewer_id).first() if viewer_id else None
    if mine is None:
        return None, None
    name = board_name(mine.period, mine.start, board)
    same = rows.filter(**SAME_KEY[board](mine))  # a short range of the index: one count
    tied_ahead = same.filter(reduce(operator.or_, _ahead(mine, _order(board))))
    return mine, rank_counts.rank(name, dict(mine.counted_on())[name], tied_ahead)


def _everyone(rows, board, offset, viewer_id):
    """(this page's records and the next one's first, the best, the viewer's own record
    and rank): a page of the board's index, the rank from the counts (`_own`)."""
    ordered = rows.annotate(**NAMED).order_by(*_ordering(_order(board)))
    found = list(ordered[offset : offset + PAGE + 1])
    first = found[0] if found and not offset else ordered.first()
    on_page = any(record.user_id == viewer_id for record in found[:PAGE])
    return found, first, (None, None) if on_page else _own(rows, board, viewer_id)


def _friends(rows, board, offset, viewer_id):
    """The same for a Friends view (at most `MAX_FOLLOWING` + 1 accounts), in one
    statement: its records numbered in the board's order, of which the page's, the
    first and the viewer's (a third of the time of reading all of them)."""
    order = [F(field).desc() if higher else F(field).asc() for field, higher in _order(board)]
    numbered = rows.annotate(position=Window(RowNumber(), order_by=order))
    wanted = Q(position__gt=offset, position__lte=offset + PAGE + 1) | Q(position=1)
    wanted |= Q(user_id=viewer_id) if viewer_id else Q()
    found = _name(list(numbered.filter(wanted).order_by("position")))
    page = [record for record in found if record.position > offset]
    first = found[0] if found and found[0].position == 1 else None
    mine = next((record for record in found if record.user_id == viewer_id), None)
    return page, first, (mine, mine.position) if mine else (None, None)


def records_page(period, start, board, page, viewer_id=None, among=None):
    """One page of a board, the viewer's own row wherever it is, and whether more follow;
    `among`: only these accounts' records (a Friends view)."""
    rows = _records(period, start, board, among)
    offset = (page - 1) * PAGE
    found, first, (record, rank) = (_everyone if among is None else _friends)(
        rows, board, offset, viewer_id
    )
    best = getattr(first, BOARDS[board][1]) if first else None
    lines = [
        _line(board, offset + n, rec, best, viewer_id) for n, rec in enumerate(found[:PAGE], 1)
    ]
    on_page = next((line for line in lines if line["you"]), None)
    you = on_page
    if you is None and record:
        you = _line(board, rank, record, best, viewer_id)
    return {
        "rows": lines,
        "you": you,
        "you_on_page": on_page is not None,
        "has_next": len(found) > PAGE,
    }


def circle_of(request, view):
    """The accounts a Friends view shows (None: everyone's); a guest's friends: none."""
    if view != "friends":
        return None
    return follows.circle(request.user) if request.user.is_authenticated else []


def render_board(request, period, start, board, context):
    """A records board's page: the rows, the viewer's own row below them, the tabs."""
    page, view = page_number(request), board_view(request)
    viewer = request.user.pk if request.user.is_authenticated else None
    found = records_page(period, start, board, page, viewer, circle_of(request, view))
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


def week_of(text):
    """ "2026-W48" -> the Monday of that ISO week; Http404 for anything else."""
    try:
        year, week = text.split("-W")
        return datetime.date.fromisocalendar(int(year), int(week), 1)
    except ValueError:
        raise Http404(gettext("A week looks like 2026-W48.")) from None


def week_name(monday):
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02}"


def period_tabs(name, key, board):
    return [
        (links.route(name, key, other), BOARDS[other][0], other == board)
        for other in PERIOD_BOARDS
    ]


@require_safe
def week(request, week, board="wins"):
    """/daily/week/<YYYY-Www>/<board>/: a week's daily deals won or best times."""
    monday = week_of(week)
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
