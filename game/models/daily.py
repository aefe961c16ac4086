"""
The daily deals as stored: one row a day, with the ranked deal (picked automatically
or scheduled by staff) and the guests' deal of that day.
"""

from django.conf import settings
from django.db import models

from game.models.deals import Deal


class DailyDeal(models.Model):
    """The deals of one UTC day: the ranked one, scheduled ahead by staff
    (game/daily/schedule.py) or picked automatically on the day's first request, and the
    guests' one (game/deals/daily.py)."""

    date = models.DateField(unique=True)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="daily")
    guest_deal = models.ForeignKey(
        Deal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="guests_daily",
        help_text="the deal guests (and accounts too new to rank) play that day, picked on "
        "the first such attempt; never the ranked deal",
    )
    explorer = models.JSONField(
        null=True,
        blank=True,
        help_text="the tree of the day's games by move (game/daily/explorer.py), stored once "
        "the day is over; none until then",
    )
    top_checked_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when the day's top results were replayed once more, the day over "
        "(game/race/verify.py): its board final",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    scheduled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the staff member who chose this deal; none when it was picked automatically",
    )

    class Meta:
        ordering = ["-date"]

    def __str__(self):
        return f"{self.date}: {self.deal.code}"
