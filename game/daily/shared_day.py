"""
The part of the day's page (/daily/, game/web/daily_pages.py) that is the same for
every reader, made once a second per process instead of once a request: at the daily
reset every newcomer opens that page first, and half its work was the same for all of
them (docs/performance.md, "The rush").

Only what every reader is shown anyway is shared: today's `DailyDeal` row (the page
shows its date; its codes stay in this process), the first page of the day's ranked
board (the public leaderboard's rows, a held result marked as the public board marks
it) and the month's days with their winners and which winners' names staff hid (the
archive's). Each reader's part — their attempt, their own row and rank, their days of
the month, their rule — and every text in their language are made per request from it.

Kept as game/base/kept.py keeps values, by the UTC day: a new result is on the page
within about a second, and the page never shows yesterday's board under today's label
(the label is the shared day's own date).
"""

from typing import NamedTuple

from game.base import days
from game.base.kept import Kept
from game.daily import archive, day_board
from game.deals import daily
from game.habits import calendar

AGE_S = 1.0
"""How old the shared part may be: how late a new result may reach the day's page."""


class SharedDay(NamedTuple):
    """Today's part of the day's page that every reader sees."""

    day: object
    """Today's `DailyDeal`, read only: a reader's Play reads its own."""
    board: tuple
    """day_board.board_page(day): the first page of its ranked board."""
    month: tuple
    """archive.month_winners of its month."""


_kept = Kept(AGE_S, most=2)
"""UTC date -> its `SharedDay` (yesterday's goes once today's is built)."""


def _build(date):
    day = daily.daily_deal(date)
    board = day_board.board_page(day)
    month = archive.month_winners(calendar.month_of(date), date)
    return SharedDay(day, board, month)


def current():
    """Today's shared part: this process's, or built now when it is `AGE_S` old."""
    date = days.today()
    return _kept.get(date, lambda: _build(date))


def forget():
    """Drop this process's shared part: the next reader builds it (tests, whose
    databases are rolled back under it)."""
    _kept.forget()
