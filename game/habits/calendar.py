"""
A month as a calendar: weeks of seven days, Monday first, each day marked.

The archive, the daily page and the profile draw the same grid; each hands over
what a day is for its reader (won, played, missed, a freeze spent, still to come),
and the grid only places the days.
"""

import calendar
import datetime


def month(first, marks, today):
    """The calendar of the month of `first` as a page draws it: {"month", "weekdays"
    (the column heads), "weeks" (`month_weeks`)}."""
    return {"month": first, "weekdays": weekdays(first), "weeks": month_weeks(first, marks, today)}


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


def weekdays(first):
    """The seven days of `first`'s week, Monday first: the calendar's column heads."""
    monday = first - datetime.timedelta(days=first.weekday())
    return [monday + datetime.timedelta(days=n) for n in range(7)]
