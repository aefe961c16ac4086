"""
The archive of past days (/daily/archive/): every day of a month with its winner, the
reader's own result (their attempt on the day, or a game played later) and a link to
the day's board; and, on that board, the "played later" list.

A past day is played later as a solo game that carries its day (`Race.daily_date`,
game/lobby/alone.py's `later_race`): its entry is no attempt (no `Entry.daily_date`), so
it ranks on no board, counts for no streak and feeds no explorer, and only the day's
"played later" list reads it. Only a day that is over is offered: its code is public
by then (game/deals/secrecy.py), today's and the days to come are never read here.
"""

import datetime

from django.db.models import Q

from game.daily import day_board
from game.daily.month_winners import next_month
from game.habits import calendar
from game.models import Entry, Race
from game.players import moderation

LATER_SHOWN = 50
"""Games played later shown on a day's board: the best first."""
LATER_ORDER = ("-won", "-score", "time_ms", "finished_at")


def _later(entries):
    """Among `entries`, the finished games of past days played later."""
    return entries.filter(race__mode=Race.SOLO, race__daily_date__isnull=False).filter(
        status__in=Entry.DONE
    )


def _with_won(entries):
    return entries.annotate(won=Q(status=Entry.WON))


RESULT = ("status", "score", "moves", "time_ms")
"""What a line shows of a game: read as values, never the row (its moves, its piles)."""


def played_later(date):
    """The day's games played later, best first: wins by time, then by score."""
    rows = _with_won(_later(Entry.objects.filter(race__daily_date=date)))
    lines = list(rows.order_by(*LATER_ORDER).values("name", "user_id", *RESULT)[:LATER_SHOWN])
    moderation.mask((line, line["user_id"]) for line in lines if line["user_id"])
    return lines


def yours(mine, first, last):
    """The reader's days from `first` to `last` (`mine`: their entries): {date: attempt}
    of their attempts on the day, and {date: best game played later}, each a dict of
    its `RESULT`."""
    attempts = mine.filter(daily_date__range=(first, last), status__in=Entry.DONE)
    later = _with_won(_later(mine).filter(race__daily_date__range=(first, last)))
    best_later = {}
    for game in later.order_by(*LATER_ORDER).values("race__daily_date", *RESULT):
        best_later.setdefault(game["race__daily_date"], game)
    return {game["daily_date"]: game for game in attempts.values("daily_date", *RESULT)}, best_later


def mark(attempt, later):
    """A day as the reader left it: won or played on the day, won or played later, or
    not played ("")."""
    if attempt is not None:
        return "won" if attempt["status"] == Entry.WON else "played"
    if later is not None:
        return "later-won" if later["status"] == Entry.WON else "later"
    return ""


def _last(first, today):
    return min(next_month(first) - datetime.timedelta(days=1), today)


def month_winners(first, today):
    """The days of the month of `first` up to `today`, {date: (DailyDeal, its ranked
    winner or None)}, and which winners' names staff hid (account ids): the same for
    every reader (game/daily/shared_day.py keeps the current month's a second)."""
    found = {day.date: (day, won) for day, won in day_board.day_winners(first, _last(first, today))}
    hidden = moderation.hidden_users(won.user_id for _, won in found.values() if won)
    return found, hidden


def month_lines(first, today, mine, winners=None):
    """Each day of the month of `first` up to `today` (today last, never its deal): its
    winner, the reader's attempt and best game played later, and their mark (`winners`:
    `month_winners`', read here when not given)."""
    last = _last(first, today)
    found, hidden = winners or month_winners(first, today)
    attempts, later = yours(mine, first, last)
    lines = []
    for offset in range((last - first).days + 1):
        date = first + datetime.timedelta(days=offset)
        day, winner = found.get(date, (None, None))
        attempt, again = attempts.get(date), later.get(date)
        lines.append(
            {
                "date": date,
                "today": date == today,
                "has_deal": day is not None,
                "winner": winner,
                "name": winner.name if winner else None,
                "attempt": attempt,
                "later": again,
                "mark": mark(attempt, again),
            }
        )
        if winner:
            moderation.hide(lines[-1], winner.user_id in hidden)
    return lines


def month_calendar(first, today, lines):
    """The month's weeks (game/habits/calendar.py) marked as the reader left each day."""
    marks = {line["date"]: line["mark"] for line in lines}
    drawn = calendar.month(first, marks, today)
    boards = {line["date"] for line in lines if line["has_deal"]}
    for week in drawn["weeks"]:
        for cell in week:
            if cell:
                cell["board"] = cell["date"] in boards
    return drawn
