"""
Events as stored: a fixed-hour race of many players through a sequence of deals.

An `Event` holds its deals in order (`EventDeal`); each player who joins has one
`EventEntry` (their totals, kept by game/events/play.py) and one `EventGame` per deal
they began, each a `Race` played alone (mode `event`), so moves, replays and fair
play are a race's. `EventSchedule` is staff's recurring rule (every day, or chosen
weekdays, at an hour) that creates the coming events (game/events/schedule.py).
"""

from datetime import UTC, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import (
    MaxValueValidator,
    MinLengthValidator,
    MinValueValidator,
    RegexValidator,
)
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext, pgettext_lazy

from game.models.daily import DailyDeal
from game.models.deals import Deal
from game.models.races import NAME_MAX, Race

MIN_MINUTES, MAX_MINUTES = 5, 120
"""How long an event may last."""


EVERY_DAY = "0123456"
"""`EventSchedule.weekdays` for every day: Monday 0 to Sunday 6, as `date.weekday()`."""

WEEKDAY_NAMES = (
    pgettext_lazy("every", "Monday"),
    pgettext_lazy("every", "Tuesday"),
    pgettext_lazy("every", "Wednesday"),
    pgettext_lazy("every", "Thursday"),
    pgettext_lazy("every", "Friday"),
    pgettext_lazy("every", "Saturday"),
    pgettext_lazy("every", "Sunday"),
)
"""Each weekday as "every Saturday" says it (lower case where the language wants it)."""


class EventSchedule(models.Model):
    """A recurring event: on each of `weekdays` at `at` (UTC), `deals` deals picked
    winnable."""

    title = models.CharField(max_length=80)
    at = models.TimeField(help_text="the start, on each of its weekdays, in UTC")
    weekdays = models.CharField(
        max_length=7,
        default=EVERY_DAY,
        validators=[
            MinLengthValidator(1),
            RegexValidator(r"^0?1?2?3?4?5?6?$", "weekdays: digits 0 (Monday) to 6, in order"),
        ],
        help_text='the days it runs, Monday 0 to Sunday 6 ("5": Saturdays only)',
    )
    minutes = models.PositiveSmallIntegerField(
        default=30, validators=[MinValueValidator(MIN_MINUTES), MaxValueValidator(MAX_MINUTES)]
    )
    deals = models.PositiveSmallIntegerField(
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text="deals per event, each proven winnable by the solver",
    )
    rated = models.BooleanField(default=False)
    active = models.BooleanField(default=True)

    def __str__(self):
        return f"{self.title} {self.when()}"

    def runs_on(self, day):
        """Whether it has an event on `day` (a date)."""
        return str(day.weekday()) in self.weekdays

    def when(self):
        """ "every day at 20:00 UTC", "every Saturday at 18:00 UTC", "every Monday and
        Friday at …", in the reader's language."""
        time = f"{self.at:%H:%M}"
        if self.weekdays == EVERY_DAY:
            return gettext("every day at %(time)s UTC") % {"time": time}
        names = [WEEKDAY_NAMES[int(day)] for day in self.weekdays]
        days = get_text_list(names, gettext("and"))
        return gettext("every %(days)s at %(time)s UTC") % {"days": days, "time": time}


class Event(models.Model):
    title = models.CharField(max_length=80)
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(
        default=30, validators=[MinValueValidator(MIN_MINUTES), MaxValueValidator(MAX_MINUTES)]
    )
    rated = models.BooleanField(
        default=False, help_text="rated: only accounts may join, and its ranks show on profiles"
    )
    schedule = models.ForeignKey(
        EventSchedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            # A schedule's event of a given start is created once, whoever creates it.
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="one_event_per_slot"),
        ]

    def __str__(self):
        return f"{self.title} ({self.starts_at:%Y-%m-%d %H:%M})"

    def get_absolute_url(self):
        return reverse("game:event", args=[self.pk])

    @property
    def ends_at(self):
        return self.starts_at + timedelta(minutes=self.minutes)


class EventDeal(models.Model):
    """The event's deal number `index` (0 first): played in this order by everyone."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deals")
    index = models.PositiveSmallIntegerField()
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="event_deals")

    class Meta:
        ordering = ["event", "index"]
        constraints = [
            models.UniqueConstraint(fields=["event", "index"], name="one_deal_per_event_index")
        ]

    def __str__(self):
        return f"{self.event_id}#{self.index + 1}"

    def clean(self):
        """Refuse a deal of a daily day not over, ranked or guests': the event's players
        would see the day's deal, and its end would show the code while the day runs on.
        (game/events/schedule.py `check_daily` refuses one a coming day may pick too.)"""
        today = timezone.now().astimezone(UTC).date()
        uses = Q(deal_id=self.deal_id) | Q(guest_deal_id=self.deal_id)
        if self.deal_id and DailyDeal.objects.filter(uses, date__gte=today).exists():
            message = "a daily deal whose day is not over: pick another deal"
            raise ValidationError({"deal": ValidationError(message, code="daily_deal")})


class EventEntry(models.Model):
    """A player in an event and their totals (game/events/points.py's rule)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player_key = models.CharField(max_length=32)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="event_entries",
    )
    name = models.CharField(max_length=NAME_MAX)
    address_tag = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="a keyed digest of the address it joined from, never the address: "
        "its entries' peeks count together (game/race/fairplay.py)",
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    points = models.PositiveIntegerField(default=0, help_text="the games over, settled")
    wins = models.PositiveSmallIntegerField(default=0)
    time_ms = models.PositiveBigIntegerField(default=0, help_text="the games over, summed")
    current = models.ForeignKey(
        Race, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="final, once it is over")

    class Meta:
        ordering = ["event", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player_key"], name="one_event_entry"),
        ]
        indexes = [
            models.Index(fields=["user", "rank"], name="event_entry_user"),
            models.Index(fields=["event", "address_tag"], name="event_entry_address"),
        ]
        verbose_name_plural = "event entries"

    def __str__(self):
        return f"{self.name} in event {self.event_id}"


class EventGame(models.Model):
    """One deal of an event as one player played it: a race of one."""

    entry = models.ForeignKey(EventEntry, on_delete=models.CASCADE, related_name="games")
    index = models.PositiveSmallIntegerField()
    race = models.OneToOneField(Race, on_delete=models.CASCADE, related_name="event_game")
    points = models.PositiveIntegerField(null=True, blank=True, help_text="once settled")

    class Meta:
        ordering = ["entry", "index"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "index"], name="one_event_game_per_deal")
        ]

    def __str__(self):
        return f"{self.entry} deal {self.index + 1}"
