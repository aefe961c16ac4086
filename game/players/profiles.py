"""
What a profile shows (its page, /players/<username>/ and /me/, is game/web/profiles.py's):
games played and won, win rate, the streak of daily deals won
(current and best, with its freezes: game/habits/streaks.py), the days played and
won with this month's calendar of them, the best winning time, and the history of games with a
chart of results over time; an account's rating, rank, rated record and rating
history (game/players/player_ratings.py); events played to their end and the best final
rank. Read from the entries' stored results, newest
first, through the `entry_user_history` / `entry_guest_history` indexes.
"""

from django.db.models import Count, Min, Q

from game.base import days
from game.habits import calendar, streaks
from game.models import Entry

HISTORY = 100
HISTORY_FIELDS = (
    *("joined_at", "daily_date", "status", "review", "score", "time_ms", "undos"),
    *("race__room", "race__mode", "race__status", "race__closes_at", "race__daily_date"),
)
"""What a game's row and its chart's bar show (game/templatetags/halfmoon.py's
`history_rows`, game/players/history_chart.py): only these are read, the rest (the pile
heights as JSON, above all) was half the history's time."""


def counted(entries):
    """The finished results among `entries` that count for statistics: not disqualified."""
    return entries.filter(status__in=Entry.DONE).exclude(review=Entry.DISQUALIFIED)


TOTALS = {
    "played": Count("id"),
    "won": Count("id", filter=Q(status=Entry.WON)),
    "best_ms": Min("time_ms", filter=Q(status=Entry.WON, review__in=Entry.COUNTED)),
}
"""Games played and won, and the best winning time among results judged clean or
confirmed: aggregates over `counted` results (a player's here, a deal's in the
staff's calendar)."""


def win_rate(totals):
    """Won as a whole percentage of played; None before the first game."""
    return round(100 * totals["won"] / totals["played"]) if totals["played"] else None


def daily_days(entries):
    """(days played, days won) of a player's daily attempts among `entries` (sets of
    dates), counted as `counted` counts: the attempts, never a day played later."""
    rows = counted(entries).filter(daily_date__isnull=False).values_list("daily_date", "status")
    played, won = set(), set()
    for date, status in rows.order_by().distinct():
        played.add(date)
        if status == Entry.WON:
            won.add(date)
    return played, won


def stats(entries, days_of=None):
    """The numbers at the top of a profile, for a queryset of one player's entries
    (`days_of`: their `daily_days`, when read already)."""
    totals = counted(entries).aggregate(**TOTALS)
    played, won = days_of or daily_days(entries)
    streak = streaks.streak(played, won, days.today())
    return {
        **totals,
        "win_rate": win_rate(totals),
        "streak": streak.current,
        "best_streak": streak.best,
        "freezes_held": streak.held,
        "freezes_used": streak.used,
        "days_played": len(played),
        "days_won": len(won),
    }


def month_calendar(played, won, today):
    """This month's weeks of a player's days (game/habits/calendar.py): each past or
    present day won, played, bridged by a freeze or missed."""
    frozen = set(streaks.streak(played, won, today).frozen)
    first = calendar.month_of(today)
    marks = dict.fromkeys(frozen, "freeze")
    marks.update(dict.fromkeys(played, "played"))
    marks.update(dict.fromkeys(won, "won"))
    return calendar.month(first, marks, today)


def event_record(events):
    """Events played to their end and the best final rank, from a queryset of one
    player's `EventEntry` rows (ranks are set once an event is over); a result held for
    review (a game flagged, or disqualified) is no best rank until staff confirm it."""
    held = Q(games__race__entries__review__in=(Entry.FLAGGED, Entry.DISQUALIFIED))
    over = events.filter(rank__isnull=False)
    return {
        "events": over.count(),
        "best_rank": over.exclude(pk__in=events.filter(held).values("pk")).aggregate(
            best=Min("rank")
        )["best"],
    }


def history(entries):
    """The latest games, newest first, with what the chart needs."""
    rows = entries.filter(status__in=Entry.DONE).select_related("race").only(*HISTORY_FIELDS)
    return list(rows.order_by("-joined_at")[:HISTORY])
