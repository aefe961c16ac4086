"""
A month as a calendar: weeks of seven days, Monday first, each day marked.

The archive, the daily page and the profile draw the same grid; each hands over
what a day is for its reader (won, played, missed, a freeze spent, still to come),
and the grid only places the days.
"""

import calendar
import datetime


def month_weeks(first, marks, today):
    """The weeks of the month of `first`: each a list of seven cells, None outside the
    month, else {"date", "mark", "past", "today"}, the mark from `marks` (a dict by
    date, "" when absent); a day after `today` is marked "future"."""
    weeks = calendar.Calendar(firstweekday=0).monthdatescalendar(first.year, first.month)
    return [[_cell(date, first, marks, today) for date in week] for week in weeks]


def _cell(date, first, marks, today):
    if date.month != first.month:
        return None
    mark = "future" if date > today else marks.get(date, "")
    return {"date": date, "mark": mark, "past": date < today, "today": date == today}


def month_of(date):
    """The first day of `date`'s month."""
    return datetime.date(date.year, date.month, 1)
