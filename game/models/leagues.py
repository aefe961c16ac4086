"""
Weekly leagues as stored (game/leagues/): an account's place in one week's group, its
points kept up to date on every result that counts, so a group's page reads ~30 rows
of one index; and each week's settlement, stored once, which is what makes the
week's promotions and relegations happen exactly once.
"""

from django.conf import settings
from django.db import models


class LeagueMember(models.Model):
    """An account in one week's league group: joined with its first ranked daily, rated
    race or event of the week, at the tier its last week left it in."""

    UP, DOWN, STAY = "up", "down", "stay"
    OUTCOMES = [
        ("", "the week is not over"),
        (UP, "promoted"),
        (DOWN, "relegated"),
        (STAY, "stays"),
    ]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_weeks"
    )
    week = models.DateField(help_text="the Monday (UTC) the ISO week starts on")
    tier = models.PositiveSmallIntegerField(
        help_text="0 = New Moon, the lowest (game/leagues/rules.py)"
    )
    group = models.PositiveIntegerField(help_text="the group's number in its week and tier, from 1")
    points = models.PositiveIntegerField(default=0, help_text="the week's points so far")
    scored_at = models.DateTimeField(
        null=True, blank=True, help_text="when the points last grew: earlier breaks a tie"
    )
    rank = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="in the group, once settled"
    )
    outcome = models.CharField(max_length=4, choices=OUTCOMES, default="", blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "week"], name="one_league_group_a_week"),
        ]
        indexes = [
            models.Index(fields=["week", "tier", "group"], name="league_group"),
        ]

    def __str__(self):
        return f"{self.user} · {self.week} tier {self.tier} group {self.group}"


class LeagueWeek(models.Model):
    """A settled week: its row is written in the transaction that stores every group's
    ranks and outcomes, so a second settlement finds it and does nothing."""

    week = models.DateField(unique=True)
    settled_at = models.DateTimeField()
    members = models.PositiveIntegerField(help_text="accounts that played that week")

    class Meta:
        ordering = ["-week"]

    def __str__(self):
        return f"league week {self.week}"
