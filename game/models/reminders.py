"""
Reminders as stored (game/reminders/): a device's web push subscription with what its
player asked to be reminded of, and each reminder once — planned, then sent — so that
a reminder is never sent twice however often the job runs.
"""

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """A browser's push address (the Push API's subscription) and the reminders its player
    turned on there. Nothing is ever sent to a device whose player did not ask for it."""

    player_key = models.CharField(max_length=32, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="the browser's public key (base64url)")
    auth = models.CharField(max_length=40, help_text="the browser's auth secret (base64url)")
    language = models.CharField(max_length=8, default="en")
    daily = models.BooleanField(default=False, help_text="the daily deal is ready")
    daily_hour = models.PositiveSmallIntegerField(default=9, help_text="local hour, 0-23")
    time_zone = models.CharField(max_length=64, default="UTC", help_text="an IANA name")
    events = models.BooleanField(default=True, help_text="an event joined starts in 10 minutes")
    challenges = models.BooleanField(default=True, help_text="a challenge received")
    leagues = models.BooleanField(
        default=True, help_text="the league week ends tomorrow, on a promotion line"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"push {self.pk} of {self.user or self.player_key[:8]}"


class Reminder(models.Model):
    """One reminder for one device, planned once (`key` names what it is about) and sent
    by the job (`manage.py send_reminders`)."""

    DAILY, EVENT, CHALLENGE, LEAGUE = "daily", "event", "challenge", "league"
    KINDS = [(kind, kind) for kind in (DAILY, EVENT, CHALLENGE, LEAGUE)]
    PENDING, SENT, GONE, FAILED = "", "sent", "gone", "failed"
    STATUSES = [(PENDING, "to send"), (SENT, "sent"), (GONE, "device gone"), (FAILED, "failed")]

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="reminders"
    )
    kind = models.CharField(max_length=10, choices=KINDS)
    key = models.CharField(max_length=40, help_text="what it is about: a day, an event…")
    payload = models.JSONField(help_text="title, body and the address to open")
    due_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=6, choices=STATUSES, default=PENDING, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "kind", "key"], name="one_reminder_of_a_thing"
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_at"], name="reminders_to_send", condition=models.Q(status="")
            ),
        ]

    def __str__(self):
        return f"{self.kind} {self.key} → {self.subscription_id}"
