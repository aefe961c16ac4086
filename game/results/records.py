"""
An account's records (`Record`: ranked daily wins, best time, longest run of days,
all time and per ISO week and calendar month), brought up to date whenever one of
its daily results is judged or a staff decision changes whether it counts
(game/results/fairplay.py). Each update recomputes the account's few periods from its
ranked daily wins (the `daily_ranked_user_wins` index), under the account's row
lock, so two results judged at once never leave a stale record.
"""

import datetime

from django.db import transaction

from game.models import ALL_TIME_START, Account, Entry, Record, rank_counts


def week_start(date):
    """The Monday of `date`'s ISO week."""
    return date - datetime.timedelta(days=date.weekday())


def periods_of(date):
    """The (period, start) pairs a daily result of `date` counts in."""
    return [
        (Record.ALL, ALL_TIME_START),
        (Record.WEEK, week_start(date)),
        (Record.MONTH, date.replace(day=1)),
    ]


def inside(period, start, date):
    """Whether `date` lies in the period that begins on `start`."""
    if period == Record.ALL:
        return True
    if period == Record.WEEK:
        return week_start(date) == start
    return date.replace(day=1) == start


def summary(wins):
    """A record's figures from [(date, time_ms)] of ranked wins, oldest first (one a day)."""
    timed = [(ms, date) for date, ms in wins if ms is not None]
    best_ms, best_on = min(timed) if timed else (None, None)
    streak = run = 0
    streak_on = previous = None
    for date, _ in wins:
        run = run + 1 if previous and date - previous == datetime.timedelta(days=1) else 1
        if run > streak:
            streak, streak_on = run, date
        previous = date
    return {
        "wins": len(wins),
        "last_won": wins[-1][0],
        "best_ms": best_ms,
        "best_on": best_on,
        "streak": streak,
        "streak_on": streak_on,
    }


def refresh(user_id, dates):
    """Recompute `user_id`'s records of the periods `dates` fall in (and all time)."""
    wanted = {pair for date in dates for pair in periods_of(date)}
    if user_id is None or not wanted:
        return
    with transaction.atomic(), rank_counts.collected():
        Account.objects.select_for_update().filter(user_id=user_id).first()
        won = Entry.objects.filter(
            user_id=user_id, ranked=True, status=Entry.WON, daily_date__isnull=False
        )
        wins = list(won.order_by("daily_date").values_list("daily_date", "time_ms"))
        for period, start in wanted:
            _store(user_id, period, start, [w for w in wins if inside(period, start, w[0])])


def _store(user_id, period, start, wins):
    """Write one period's record (none without a win), and move its boards' counts."""
    mine = Record.objects.filter(user_id=user_id, period=period, start=start).first()
    if not wins:
        if mine is not None:
            mine.delete()  # its counts leave with it (rank_counts.removed)
        return
    before = mine.counted_on() if mine else []
    mine = mine or Record(user_id=user_id, period=period, start=start)
    for field, value in summary(wins).items():
        setattr(mine, field, value)
    mine.save()
    rank_counts.moved(before, mine.counted_on())


def refresh_entries(entries):
    """The records of every account whose daily result is among `entries`."""
    for entry in entries:
        if entry.daily_date is not None and entry.user_id is not None:
            refresh(entry.user_id, [entry.daily_date])
