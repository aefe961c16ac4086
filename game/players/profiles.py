"""
What a profile shows (its page, /players/<username>/ and /me/, is game/web/profiles.py's):
games played and won, win rate, the streak of daily deals won
(current and best), the best winning time, and the history of games with a
chart of results over time; an account's rating, rank, rated record and rating
history (game/players/player_ratings.py); events played to their end and the best final
rank. Read from the entries' stored results, newest
first, through the `entry_user_history` / `entry_guest_history` indexes.
"""

import datetime

from django.db.models import Count, Min, Q

from game.base import days
from game.models import Entry

HISTORY = 100
HISTORY_FIELDS = (
    *("joined_at", "daily_date", "status", "review", "score", "time_ms", "undos"),
    *("race__room", "race__mode"),
)
"""What a game's row and its chart's bar show (game/templatetags/halfmoon.py's
`history_rows`, game/players/history_chart.py): only these are read, the rest (the pile
heights as JSON, above all) was half the history's time."""


def streaks(won_dates, today):
    """(current, best) runs of consecutive days won; the current run may end
    today or yesterday (today's deal may still be ahead)."""
    best = run = 0
    previous = None
    for date in sorted(set(won_dates)):
        run = run + 1 if previous and date - previous == datetime.timedelta(days=1) else 1
        best, previous = max(best, run), date
    recent = previous is not None and today - previous <= datetime.timedelta(days=1)
    return (run if recent else 0), best


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


def stats(entries):
    """The numbers at the top of a profile, for a queryset of one player's entries."""
    done = counted(entries)
    totals = done.aggregate(**TOTALS)
    won_days = done.filter(status=Entry.WON, daily_date__isnull=False).values_list(
        "daily_date", flat=True
    )
    current, best = streaks(list(won_days), days.today())
    return {**totals, "win_rate": win_rate(totals), "streak": current, "best_streak": best}


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
