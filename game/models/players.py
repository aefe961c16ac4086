"""
Players as stored: an account's player key and rating, and staff's logged decisions on results
(`Review`) and on names (`NameReview`).
"""

import math

from django.conf import settings
from django.db import models

from game.models.races import Entry


class Account(models.Model):
    """The player key an account plays under, on every device it logs in from.

    A guest who signs up keeps their session's key, so their games are theirs;
    logging in puts the account's key into the session (game/players/accounts.py).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account"
    )
    player_key = models.CharField(max_length=32, unique=True)
    name_hidden = models.BooleanField(
        default=False,
        help_text="staff hid this name from the leaderboards",
    )
    rating = models.FloatField(default=1500.0, help_text="Glicko-2 rating (game/ratings/)")
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    rated_games = models.PositiveIntegerField(
        default=0, help_text="rated games counted: on the rating board from the first"
    )
    rated_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when its latest rated race was first rated: the deviation grows "
        "from then, a day at a time (game/players/ratings.py)",
    )

    signup_address = models.CharField(
        max_length=32,
        blank=True,
        help_text="a keyed hash of the address it signed up from, never the address "
        "(game/base/clients.py `address_hash`): accounts of one address feed no rating",
    )
    last_address = models.CharField(
        max_length=32, blank=True, help_text="the same of its latest log-in"
    )

    class Meta:
        indexes = [
            # The rating board, best first (game/players/player_ratings.py).
            models.Index(
                models.F("rating").desc(),
                "id",
                name="rating_board",
                condition=models.Q(rated_games__gt=0),
            ),
        ]

    def __str__(self):
        return self.user.get_username()

    def counted_on(self):
        """[(board, key)] for the rating board (`RankCount`): the rating's whole point,
        once it has a counted rated game."""
        return [("rating", math.floor(self.rating))] if self.rated_games > 0 else []


class Review(models.Model):
    """The moderation log: a staff member's decision on a flagged result, and why."""

    DECISIONS = [(Entry.CONFIRMED, "confirmed"), (Entry.DISQUALIFIED, "disqualified")]

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="reviews")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    decision = models.CharField(max_length=12, choices=DECISIONS)
    reason = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self):
        return f"{self.entry} {self.decision} by {self.staff} at {self.at:%Y-%m-%d %H:%M}"


class NameReview(models.Model):
    """The log of names hidden from the leaderboards (or shown again): who, when, why.
    `Account.name_hidden` is the current state; these rows are never changed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_reviews"
    )
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    hidden = models.BooleanField(help_text="hidden, or shown again")
    reason = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self):
        action = "hidden" if self.hidden else "shown again"
        return f"{self.user} {action} by {self.staff} at {self.at:%Y-%m-%d %H:%M}"
