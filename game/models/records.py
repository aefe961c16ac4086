"""
Records as stored: an account's ranked daily results summed up per period (all
time, an ISO week, a calendar month), kept up to date when a result is judged
(game/results/records.py), so a board reads one index instead of aggregating every
daily result on each view.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q

ALL_TIME_START = datetime.date(2000, 1, 1)
"""The `start` of the one all-time period."""


class Record(models.Model):
    """One account's ranked daily wins in one period: how many, the best time, the
    longest run of consecutive days. Only periods with a ranked win have a row."""

    ALL, WEEK, MONTH = "all", "week", "month"
    PERIODS = [(ALL, "all time"), (WEEK, "ISO week"), (MONTH, "calendar month")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="records"
    )
    period = models.CharField(max_length=5, choices=PERIODS)
    start = models.DateField(help_text="the period's first day (all time: 2000-01-01)")
    wins = models.PositiveIntegerField(help_text="ranked daily deals won in the period")
    last_won = models.DateField(help_text="the latest of them")
    best_ms = models.PositiveIntegerField(null=True, help_text="the best winning time")
    best_on = models.DateField(null=True, help_text="the first day it was reached")
    streak = models.PositiveIntegerField(help_text="the longest run of consecutive days won")
    streak_on = models.DateField(help_text="the last day of the first such run")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "period", "start"], name="one_record_per_period"
            ),
        ]
        # One index per board, in the board's order (game/daily/record_boards.py). The Friends
        # views' covering index, PostgreSQL's only, is made by migration 0020.
        indexes = [
            models.Index(
                "period", "start", F("wins").desc(), "last_won", "user", name="record_wins"
            ),
            models.Index(
                "period", "start", F("streak").desc(), "streak_on", "user", name="record_streaks"
            ),
            models.Index(
                "period",
                "start",
                "best_ms",
                "best_on",
                "user",
                name="record_times",
                condition=Q(best_ms__isnull=False),
            ),
        ]

    def __str__(self):
        return f"{self.user} {self.period} {self.start}: {self.wins} won"

    def counted_on(self):
        """[(board, key)] for each board this record is a row of (`RankCount`)."""

        def on(board):
            return board_name(self.period, self.start, board)

        keys = [
            (on("wins"), day_key(self.wins, self.last_won)),
            (on("streaks"), day_key(self.streak, self.streak_on)),
        ]
        if self.best_ms is not None:
            keys.append((on("times"), -(self.best_ms // 1000)))
        return keys


def board_name(period, start, board):
    """A records board's name in `RankCount`: "all/2000-01-01/wins", "week/2026-11-23/times"."""
    return f"{period}/{start:%Y-%m-%d}/{board}"


def day_key(figure, day):
    """A board's key for "the higher figure, then the earlier day": one number, higher
    first. A best time's key is its whole second, negated (faster first)."""
    return figure * 1_000_000 - day.toordinal()


class RankCount(models.Model):
    """How many rows of one board have one key: a coarse form of the board's order
    (higher first), kept in step with every change of its rows (game/models/rank_counts.py),
    so a rank deep in a board is a sum over the keys ahead and a count among the few
    rows of its own key, not a count of every row ahead."""

    board = models.CharField(max_length=40, help_text='"rating", or "<period>/<start>/<board>"')
    key = models.BigIntegerField()
    size = models.IntegerField(default=0, help_text="the board's rows with this key")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "key"], name="one_count_per_key"),
        ]

    def __str__(self):
        return f"{self.board} {self.key}: {self.size}"
