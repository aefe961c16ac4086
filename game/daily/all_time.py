"""
The all-time board (/daily/all-time/): accounts ranked by daily deals won, by
their longest run of consecutive days won, and by their best winning time.

Only ranked results count (`Entry.ranked`: an account's, judged clean or
confirmed), so a flagged or disqualified win never does. Each board is one SQL
statement over the ranked daily wins (the `daily_ranked_user_wins` partial
index): an aggregate per account, numbered by a window function, from which
one page and the viewer's own row are read — however far down it is. A run of
days is found the gaps-and-islands way: a day's number minus its position
among the player's won days is the same for every day of one run. A name staff
hid shows as "Name hidden", unlinked (game/players/moderation.py).
"""

import datetime

from django.contrib.auth import get_user_model
from django.db import connection
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from game.base import days
from game.base.inputs import page_number
from game.daily.leaderboards import PAGE
from game.models import Entry
from game.players import moderation

BOARDS = {
    # name: (title, how one account's figure is found, the better direction)
    "wins": (
        gettext_lazy("Daily deals won"),
        "SELECT user_id, COUNT(*) AS value, MAX(daily_date) AS reached FROM wins GROUP BY user_id",
        "DESC",
    ),
    "streaks": (
        gettext_lazy("Longest streak"),
        """SELECT user_id, value, reached FROM (
             SELECT user_id, COUNT(*) AS value, MAX(daily_date) AS reached,
                    ROW_NUMBER() OVER (
                      PARTITION BY user_id ORDER BY COUNT(*) DESC, MAX(daily_date)) AS n
             FROM (SELECT user_id, daily_date,
                          {day} - ROW_NUMBER() OVER (
                            PARTITION BY user_id ORDER BY daily_date) AS island
                   FROM wins) islands
             GROUP BY user_id, island) runs
           WHERE n = 1""",
        "DESC",
    ),
    "times": (
        gettext_lazy("Best times"),
        """SELECT user_id, value, reached FROM (
             SELECT user_id, time_ms AS value, daily_date AS reached,
                    ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY time_ms, daily_date) AS n
             FROM wins) best
           WHERE n = 1""",
        "ASC",
    ),
}
DAY_NUMBER = {
    "postgresql": "(daily_date - DATE '2000-01-01')",
    "sqlite": "CAST(julianday(daily_date) AS INTEGER)",
}
"""A date as a count of days, in each database's own words."""

BOARD_SQL = """
WITH wins AS (
  SELECT user_id, daily_date, time_ms FROM {entries}
  WHERE ranked AND status = 'won' AND daily_date IS NOT NULL AND user_id IS NOT NULL
),
per_player AS ({per_player}),
board AS (
  SELECT user_id, value, reached,
         ROW_NUMBER() OVER (ORDER BY value {direction}, reached, user_id) AS position,
         COUNT(*) OVER () AS players,
         {best}(value) OVER () AS best
  FROM per_player
)
SELECT board.position, users.{username}, board.value, board.reached, board.players,
       board.best, board.user_id
FROM board JOIN {users} users ON users.id = board.user_id
WHERE (board.position > %s AND board.position <= %s) OR board.user_id = %s
ORDER BY board.position
"""


def _sql(board):
    _, per_player, direction = BOARDS[board]
    users = get_user_model()
    return BOARD_SQL.format(
        entries=Entry._meta.db_table,
        per_player=per_player.format(day=DAY_NUMBER[connection.vendor]),
        direction=direction,
        best="MAX" if direction == "DESC" else "MIN",
        users=users._meta.db_table,
        username=users.USERNAME_FIELD,
    )


def _share(board, value, best):
    """The bar of a row: its figure as a share of the best (the fastest time is a full bar)."""
    if not value or not best:
        return 0
    return best / value if BOARDS[board][2] == "ASC" else value / best


def board_page(board, page, viewer_id=None):
    """One page of a board, the viewer's own row wherever it is, and whether more follow."""
    offset = (page - 1) * PAGE
    with connection.cursor() as cursor:
        cursor.execute(_sql(board), [offset, offset + PAGE, viewer_id])
        found = cursor.fetchall()
    rows, you, named = [], None, []
    players = found[0][4] if found else 0
    for position, username, value, reached, _, best, user_id in found:
        line = {
            "rank": position,
            "name": username,
            "value": value,
            "reached": datetime.date.fromisoformat(str(reached)),
            "share": _share(board, value, best),
            "you": user_id == viewer_id,
        }
        if offset < position <= offset + PAGE:
            rows.append(line)
        if line["you"]:
            you = line
        named.append((line, user_id))
    moderation.mask(named)
    on_page = you is not None and offset < you["rank"] <= offset + PAGE
    return {"rows": rows, "you": you, "you_on_page": on_page, "has_next": players > offset + PAGE}


@require_safe
def all_time(request, board="wins"):
    if board not in BOARDS:
        raise Http404(gettext("There is no such board."))
    page = page_number(request)
    viewer = request.user.pk if request.user.is_authenticated else None
    found = board_page(board, page, viewer)
    shown = found["rows"] + ([found["you"]] if found["you"] and not found["you_on_page"] else [])
    context = {
        "board": board,
        "boards": [(name, title) for name, (title, _, _) in BOARDS.items()],
        "title": BOARDS[board][0],
        "page": page,
        "month": days.today(),
        "shown": shown,
        **found,
    }
    return render(request, "game/alltime.html", context)
