"""
A month's daily winners (the page /daily/month/2026-11/, game/web/record_boards.py): each day
of a month with its ranked winner so far, a link to that day's board, and a bar of the
winning times, so a player sees at a glance who took which day. The month's records
boards (/daily/month/2026-11/wins/, /times/) are game/daily/record_boards.py's.

Each day's winner is read in the same statement as the days
(`day_board.day_winners`); a day's code is shown only once the day is over
(game/deals/secrecy.py), a name staff hid is not (game/players/moderation.py), and days
still to come are not listed.
"""

import datetime

from game.daily import day_board
from game.deals import secrecy
from game.players import moderation


def next_month(first):
    return (first + datetime.timedelta(days=32)).replace(day=1)


def previous_month(first):
    return (first - datetime.timedelta(days=1)).replace(day=1)


def days_of(first, today):
    """One line per day of the month up to today: the day's deal, code and winner."""
    last = min(next_month(first) - datetime.timedelta(days=1), today)
    found = {day.date: (day, winner) for day, winner in day_board.day_winners(first, last)}
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
