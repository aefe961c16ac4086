"""
Ratings as stored: each rated result's change (`RatingChange`: before and after,
kept so that a disqualification can reverse it) and each pair of accounts a rated
race counted (`RatedPair`: at most HALFMOON_RATED_PAIR_DAILY a day). The current
rating is on `Account`.
"""

from django.conf import settings
from django.db import models

from game.models.races import Entry, Race


class RatingChange(models.Model):
    """What one rated result did to its account's rating (game/race/rated.py)."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="rating_change")
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    at = models.DateTimeField(help_text="when the race finished")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    wins = models.PositiveSmallIntegerField(default=0, help_text="opponents beaten, counted")
    losses = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["user", "at"], name="rating_history")]

    def __str__(self):
        return f"{self.user} {self.rating_before:.0f} → {self.rating_after:.0f}"

    @property
    def change(self):
        return self.rating_after - self.rating_before

    @property
    def counted(self):
        return self.wins + self.losses + self.draws > 0


class RatedPair(models.Model):
    """Two accounts whose game against each other a rated race counted (`low` < `high`)."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="rated_pairs")
    day = models.DateField()
    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["low", "high", "day"], name="rated_pairs_a_day")]

    def __str__(self):
        return f"{self.low_id}-{self.high_id} on {self.day}"
