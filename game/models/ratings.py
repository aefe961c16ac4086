"""
Ratings as stored: each rated result's change (`RatingChange`: before and after,
kept so that a disqualification can reverse it) and each pair of accounts a rated
race or a rated event counted (`RatedPair`: at most HALFMOON_RATED_PAIR_DAILY a day).
A result is a rated race's `Entry` or a rated event's `EventEntry` (its final
standings are one rating period). The current rating is on `Account`.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from game.models.events import Event, EventEntry
from game.models.races import Entry, Race


class RatingChange(models.Model):
    """What one rated result did to its account's rating (game/results/rated.py): a rated
    race's (`entry`, `race`) or a rated event's (`event_entry`)."""

    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_change"
    )
    race = models.ForeignKey(
        Race, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_changes"
    )
    event_entry = models.OneToOneField(
        EventEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_change"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    at = models.DateTimeField(help_text="when the race finished, or the event ended")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    wins = models.PositiveSmallIntegerField(default=0, help_text="opponents beaten, counted")
    losses = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    capped = models.FloatField(
        default=0.0,
        help_text="rating gained against accounts created recently or from the player's "
        "address: the day's cap counts these (game/race/rated.py)",
    )

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["user", "at"], name="rating_history")]
        constraints = [
            models.CheckConstraint(
                condition=Q(entry__isnull=False, race__isnull=False, event_entry__isnull=True)
                | Q(entry__isnull=True, race__isnull=True, event_entry__isnull=False),
                name="rating_change_of_a_race_or_an_event",
            )
        ]

    def __str__(self):
        return f"{self.user} {self.rating_before:.0f} → {self.rating_after:.0f}"

    @property
    def change(self):
        return self.rating_after - self.rating_before

    @property
    def counted(self):
        return self.wins + self.losses + self.draws > 0


class RatedPair(models.Model):
    """Two accounts whose game against each other a rated race or a rated event counted
    (`low` < `high`)."""

    race = models.ForeignKey(
        Race, null=True, blank=True, on_delete=models.CASCADE, related_name="rated_pairs"
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="rated_pairs"
    )
    day = models.DateField()
    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["low", "high", "day"], name="rated_pairs_a_day")]
        constraints = [
            models.CheckConstraint(
                condition=Q(race__isnull=False, event__isnull=True)
                | Q(race__isnull=True, event__isnull=False),
                name="rated_pair_of_a_race_or_an_event",
            )
        ]

    def __str__(self):
        return f"{self.low_id}-{self.high_id} on {self.day}"
