"""
Friends as stored: who follows whom (`Follow`, no consent asked, like Lichess), who
blocked whom (`Block`), and the challenges one account sends another it follows
(`Challenge`). The rules on them are game/friends/'s.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Greatest, Least

from game.models.races import Race


class Follow(models.Model):
    """`follower` follows `followed`: their results show on the follower's Friends boards."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="no_self_follow"
            ),
        ]
        # A profile's two lists, newest first (game/friends/follows.py `_listed`): each
        # a range of an index in the lists' own order, ties by id included, so a list of
        # 100 reads 100 rows; without the id PostgreSQL sorted all 500 of a full
        # following list and joined every account to them (12 ms at 100,000 accounts).
        indexes = [
            models.Index(fields=["followed", "-at", "-id"], name="followers_newest_first"),
            models.Index(fields=["follower", "-at", "-id"], name="following_newest_first"),
        ]

    def __str__(self):
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """`blocker` blocked `blocked`: who may neither follow nor challenge them."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
        ]

    def __str__(self):
        return f"{self.blocker} blocked {self.blocked}"


class Challenge(models.Model):
    """An invitation to race, open until it is answered or `expires_at` passes; one
    open challenge per pair of accounts, whoever sent it."""

    OPEN, ACCEPTED, DECLINED = "open", "accepted", "declined"
    CANCELLED, EXPIRED = "cancelled", "expired"
    STATUSES = [(s, s) for s in (OPEN, ACCEPTED, DECLINED, CANCELLED, EXPIRED)]

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    race = models.ForeignKey(
        Race,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the private race an accepted challenge made",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                Least("challenger", "challenged"),
                Greatest("challenger", "challenged"),
                condition=Q(status="open"),
                name="one_open_challenge_per_pair",
            ),
        ]
        indexes = [
            # A player's poll: the challenges sent to them and by them, newest first.
            models.Index(fields=["challenged", "-created_at"], name="challenges_received"),
            models.Index(fields=["challenger", "-created_at"], name="challenges_sent"),
        ]

    def __str__(self):
        return f"{self.challenger} challenges {self.challenged} ({self.status})"
