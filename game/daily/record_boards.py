"""
The records boards, read from accounts' records (`Record`, kept by game/results/records.py
when a result is judged): all time, an ISO week and a calendar month (/daily/all-time/,
/daily/week/2026-W48/, /daily/month/2026-11/wins/), each by daily deals won, best time
(and, all time, longest streak), for everyone or for one's friends (the accounts one
follows, and oneself); their pages are game/web/record_boards.py's.

Only ranked results count (`Entry.ranked`: an account's, judged clean or confirmed), so
a flagged or disqualified win never does. Before the records, the all-time board
aggregated every ranked daily win on each view (150-270 ms at 81,800 results,
docs/fair-play.md).

Every board is a range of one index (`record_wins`, `record_streaks`,
`record_times`): a page is an index scan of 51 rows, the viewer's own rank the sum of
the board's counts of the keys ahead (game/models/rank_counts.py) and a count among the
rows of one's own key on the same index, so a page costs the same at a hundred
thousand accounts as at ten. A name staff hid reads "Name
hidden", unlinked (game/players/moderation.py).
"""

import functools

from django.utils.translation import gettext_lazy

from game.daily.day_board import PAGE
from game.friends import follows
from game.models import ALL_TIME_START, Record, rank_counts
from game.models.records import board_name
from game.players import moderation

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


_READ = (
    "SELECT r.*, u.username, a.name_hidden FROM {records} r JOIN auth_user u ON u.id = r.user_id"
    " LEFT JOIN game_account a ON a.user_id = r.user_id"
)
"""A board's records, each with its account's name and whether staff hid it (its line's
`name_hidden`, game/players/moderation.py), not the accounts' rows and models.

A board's statements are SQL written once per board (`_statements`): through the ORM,
building and compiling them again on every view took the web process twice the time
of its SQL (bench/friends_boards.py). Every value is a parameter."""


def _where(board, table=""):
    timed = f" AND {table}best_ms IS NOT NULL" if board == "times" else ""
    return f"{table}period = %s AND {table}start = %s{timed}"


def _order_by(board, table=""):
    order = _order(board)
    return ", ".join(f"{table}{field} {'DESC' if higher else 'ASC'}" for field, higher in order)


@functools.cache
def _statements(board):
    """A board's page, its viewer's own record, and a Friends view's page: its records
    numbered in the board's order (all of them, up to 501), then of those the page's,
    the first and the viewer's, with their accounts (joined before the numbering, the
    accounts of all 501 nearly doubled PostgreSQL's time)."""
    numbered = (
        f"(SELECT *, ROW_NUMBER() OVER (ORDER BY {_order_by(board)}) AS position"
        f" FROM game_record WHERE {_where(board)} AND user_id IN ({{among}}))"
    )
    return {
        "page": f"{_READ.format(records='game_record')} WHERE {_where(board, 'r.')}"
        f" ORDER BY {_order_by(board, 'r.')} LIMIT %s OFFSET %s",
        "own": f"{_READ.format(records='game_record')} WHERE {_where(board, 'r.')}"
        " AND r.user_id = %s",
        "friends": f"{_READ.format(records=numbered)} WHERE (r.position > %s AND"
        " r.position <= %s) OR r.position = 1 OR r.user_id = %s ORDER BY r.position",
    }


def _read(statement, params):
    return list(Record.objects.raw(statement, params))


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
_COMPARED = {"": "=", "gte": ">=", "lt": "<"}
"""`SAME_KEY`'s lookups in SQL."""


def _tied_ahead(record, board):
    """(SQL, parameters) of the records of `record`'s key ranked before it: a short range
    of the board's index, `day_board._ahead`'s clauses in SQL."""
    where, params = [_where(board)], [record.period, record.start]
    for lookup, value in SAME_KEY[board](record).items():
        field, _, how = lookup.partition("__")
        where.append(f"{field} {_COMPARED[how]} %s")
        params.append(value)
    order, clauses = _order(board), []
    for n, (field, higher) in enumerate(order):
        equal = [f"{before} = %s AND " for before, _ in order[:n]]
        clauses.append(f"({''.join(equal)}{field} {'>' if higher else '<'} %s)")
        params += [getattr(record, name) for name, _ in order[: n + 1]]
    where.append(f"({' OR '.join(clauses)})")
    return f"SELECT id FROM game_record WHERE {' AND '.join(where)}", params


def _own(period, start, board, viewer_id):
    """The viewer's record on everyone's board and its rank, or (None, None): the rows
    of the keys ahead from the board's counts, then those ahead among its own key's."""
    found = _read(_statements(board)["own"], [period, start, viewer_id]) if viewer_id else []
    if not found:
        return None, None
    mine, name = found[0], board_name(period, start, board)
    return mine, rank_counts.rank(name, dict(mine.counted_on())[name], *_tied_ahead(mine, board))


def _everyone(period, start, board, offset, viewer_id):
    """(this page's records and the next one's first, the best, the viewer's own record
    and rank): a page of the board's index, the rank from the counts (`_own`)."""
    page = _statements(board)["page"]
    found = _read(page, [period, start, PAGE + 1, offset])
    first = found[0] if found and not offset else (_read(page, [period, start, 1, 0]) or [None])[0]
    on_page = any(record.user_id == viewer_id for record in found[:PAGE])
    return found, first, (None, None) if on_page else _own(period, start, board, viewer_id)


def _friends(period, start, board, offset, viewer_id, among):
    """The same for a Friends view (at most `MAX_FOLLOWING` + 1 accounts), in one
    statement: its records numbered in the board's order, of which the page's, the
    first and the viewer's (a third of the time of reading all of them)."""
    accounts, accounts_params = follows.as_sql(among)
    statement = _statements(board)["friends"].replace("{among}", accounts)
    params = [period, start, *accounts_params, offset, offset + PAGE + 1, viewer_id]
    found = _read(statement, params)
    page = [record for record in found if record.position > offset]
    first = found[0] if found and found[0].position == 1 else None
    mine = next((record for record in found if record.user_id == viewer_id), None)
    return page, first, (mine, mine.position) if mine else (None, None)


def records_page(period, start, board, page, viewer_id=None, among=None):
    """One page of a board, the viewer's own row wherever it is, and whether more follow;
    `among`: only these accounts' records (a Friends view)."""
    offset = (page - 1) * PAGE
    if among is None:
        found, first, (record, rank) = _everyone(period, start, board, offset, viewer_id)
    else:
        found, first, (record, rank) = _friends(period, start, board, offset, viewer_id, among)
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


def all_time_page(board, page, viewer_id=None, among=None):
    """One page of an all-time board, the viewer's own row wherever it is, and whether
    more follow."""
    return records_page(Record.ALL, ALL_TIME_START, board, page, viewer_id, among)


def week_name(monday):
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02}"
