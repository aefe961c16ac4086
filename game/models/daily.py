"""
The daily deal as stored: one row a day, picked automatically or scheduled by staff.
"""

from django.conf import settings
from django.db import models

from game.models.deals import Deal


class DailyDeal(models.Model):
    """The deal of one UTC day: scheduled ahead by staff (game/daily/schedule.py), or
    picked automatically on the day's first request (game/deals/daily.py)."""

    date = models.DateField(unique=True)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="daily")
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
