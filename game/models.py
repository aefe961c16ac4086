"""
What the race server stores: deals, the daily deal, races, players in races, moves.

The database is the truth shared by every server process. A player's board is
never stored: it is the deal replayed through that player's `Move` rows, so a
reconnect to any process rebuilds the exact same game. `Entry` keeps a few
derived numbers (score, heights, seq) so snapshots and standings never replay.
"""

import secrets
import string
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from game.engine import Deal as EngineDeal
from game.engine import format_code, parse_code

CUSTOM_PREFIX = "HM1-C-"


class Deal(models.Model):
    NUMBERED, CUSTOM = "numbered", "custom"
    SOURCES = [(NUMBERED, "numbered"), (CUSTOM, "custom")]
    VERDICTS = [
        ("winnable", "winnable"),
        ("not_winnable", "not winnable"),
        ("unknown", "unknown"),
    ]

    code = models.CharField(max_length=16, unique=True)
    source = models.CharField(max_length=10, choices=SOURCES, default=NUMBERED)
    layout = models.JSONField(null=True, blank=True, help_text="custom deals: {piles, reserve}")
    title = models.CharField(max_length=80, blank=True)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    # Filled in by the solver (game/analysis.py); null until analysed. Null (not "")
    # is the contract for "not analysed", the same for text and number fields.
    verdict = models.CharField(max_length=16, choices=VERDICTS, null=True, blank=True)  # noqa: DJ001
    winning_line = models.JSONField(null=True, blank=True)
    solver_nodes = models.BigIntegerField(null=True, blank=True)
    solver_seconds = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    difficulty_label = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    solver_version = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    analyzed_at = models.DateTimeField(null=True, blank=True)
    analysing_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when an analysis off the request path began (analysing.py)",
    )

    class Meta:
        ordering = ["code"]

    def __str__(self):
        return f"{self.code} {self.title}".strip()

    def engine_deal(self):
        """The engine's Deal for this row: numbered deals from the code, custom from layout."""
        if self.source == self.CUSTOM:
            return EngineDeal.from_layout(
                self.layout["piles"], self.layout["reserve"], code=self.code
            )
        return EngineDeal.from_code(self.code)

    @classmethod
    def for_code(cls, code):
        """The row for a deal code; numbered deals get a row on first use.

        Raises the engine's BadDealCode for a malformed code and DoesNotExist
        for a custom code no one entered.
        """
        kind, number = parse_code(code)
        canonical = format_code(number, kind)
        if kind == "C":
            return cls.objects.get(code=canonical)
        deal, _ = cls.objects.get_or_create(code=canonical, defaults={"source": cls.NUMBERED})
        return deal

    def make_custom(self, engine_deal):
        """Turn this unsaved row into a custom deal with `engine_deal`'s layout and a fresh code.

        Codes are random (26**7 of them), so a clash is unlikely; checking
        first makes it rarer still, and the unique index makes it harmless.
        """
        code = None
        while code is None or Deal.objects.filter(code=code).exists():
            code = CUSTOM_PREFIX + "".join(secrets.choice(string.ascii_uppercase) for _ in range(7))
        self.code, self.source, self.layout = code, self.CUSTOM, engine_deal.to_layout()


class DailyDeal(models.Model):
    """The deal of one UTC day: scheduled ahead by staff (game/calendar.py), or
    picked automatically on the day's first request (game/daily.py)."""

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


class Race(models.Model):
    SOLO, DAILY, RACE, QUICK, GHOST = "solo", "daily", "race", "quick", "ghost"
    MODES = [
        (SOLO, "solo"),
        (DAILY, "daily"),
        (RACE, "race"),
        (QUICK, "quick race"),
        (GHOST, "ghost race"),
    ]
    ALONE = (SOLO, DAILY, GHOST)
    """Modes one player plays alone: the game starts when their socket connects."""
    LOBBY, COUNTDOWN, RUNNING, FINISHED = "lobby", "countdown", "running", "finished"
    STATUSES = [(s, s) for s in (LOBBY, COUNTDOWN, RUNNING, FINISHED)]

    room = models.CharField(max_length=8, unique=True)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="races")
    mode = models.CharField(max_length=8, choices=MODES, default=RACE)
    daily_date = models.DateField(null=True, blank=True, db_index=True)
    host_key = models.CharField(max_length=32, blank=True, help_text="player key of the host")
    status = models.CharField(max_length=10, choices=STATUSES, default=LOBBY, db_index=True)
    time_limit_s = models.PositiveIntegerField()
    event = models.PositiveIntegerField(default=0, help_text="number of the last broadcast")
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    deal_hidden = models.BooleanField(
        default=False,
        help_text="a deal nobody chose (random, quick race): its code is shown once finished",
    )
    ghost_of = models.ForeignKey(
        "Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="ghost_races",
        help_text="a ghost race: the recorded game whose progress the player races",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.room} ({self.mode}, {self.status})"

    def get_absolute_url(self):
        return reverse("game:race", args=[self.room])

    @property
    def ws_path(self):
        return f"/ws/race/{self.room}/"

    @property
    def ends_at(self):
        """When the time limit runs out (None before the start)."""
        if self.started_at is None:
            return None
        return self.started_at + timedelta(seconds=self.time_limit_s)


class Entry(models.Model):
    """A player in a race, known by the player key kept in their session."""

    WAITING, PLAYING, WON, BLOCKED = "waiting", "playing", "won", "blocked"
    RESIGNED, TIMED_OUT, ABANDONED = "resigned", "timed_out", "abandoned"
    STATUSES = [(s, s) for s in (WAITING, PLAYING, WON, BLOCKED, RESIGNED, TIMED_OUT, ABANDONED)]
    DONE = (WON, RESIGNED, TIMED_OUT, ABANDONED)

    UNJUDGED, CLEAN, FLAGGED = "", "clean", "flagged"
    CONFIRMED, DISQUALIFIED = "confirmed", "disqualified"
    REVIEWS = [
        (UNJUDGED, "not judged yet"),
        (CLEAN, "clean"),
        (FLAGGED, "flagged: faster than a person plays"),
        (CONFIRMED, "confirmed by staff"),
        (DISQUALIFIED, "disqualified by staff"),
    ]
    COUNTED = (CLEAN, CONFIRMED)

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    player_key = models.CharField(max_length=32)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
        help_text="the account that played it; none for a guest",
    )
    daily_date = models.DateField(
        null=True, blank=True, help_text="the race's day, for a daily attempt (one per account)"
    )
    name = models.CharField(max_length=24)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True, help_text="when the player was last seen")
    connected = models.BooleanField(
        default=False, help_text="present, as last announced (game/attendance.py)"
    )
    status = models.CharField(max_length=10, choices=STATUSES, default=WAITING)
    score = models.PositiveIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    cards_left = models.PositiveIntegerField(default=104)
    heights = models.JSONField(default=list, help_text="card counts P1-P12, R1-R8")
    seq = models.PositiveIntegerField(default=0, help_text="last accepted move/undo number")
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    undos = models.PositiveIntegerField(default=0, help_text="assists: undos used")
    time_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="server time from the race start to the finish"
    )
    review = models.CharField(max_length=12, choices=REVIEWS, default=UNJUDGED, blank=True)
    ranked = models.BooleanField(
        default=False, help_text="counts on ranked boards: an account's, judged clean or confirmed"
    )

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["race", "player_key"], name="one_entry_per_player"),
            models.UniqueConstraint(
                fields=["user", "daily_date"],
                condition=Q(user__isnull=False, daily_date__isnull=False),
                name="one_daily_attempt_per_account",
            ),
        ]
        indexes = [
            # The ranked daily board: wins in order, then the rest (game/leaderboards.py).
            models.Index(
                "daily_date",
                "time_ms",
                "undos",
                models.F("score").desc(),
                "moves",
                "finished_at",
                "id",
                name="daily_ranked_wins",
                condition=Q(ranked=True, status="won"),
            ),
            models.Index(
                "daily_date",
                models.F("score").desc(),
                "moves",
                "finished_at",
                "id",
                name="daily_ranked_rest",
                condition=Q(ranked=True) & ~Q(status="won"),
            ),
            # The all-time board: an account's ranked daily wins (game/records.py).
            models.Index(
                "user",
                "daily_date",
                "time_ms",
                name="daily_ranked_user_wins",
                condition=Q(
                    ranked=True, status="won", daily_date__isnull=False, user__isnull=False
                ),
            ),
            # A player's history, newest first (game/profiles.py).
            models.Index(fields=["user", "-joined_at"], name="entry_user_history"),
            models.Index(fields=["player_key", "-joined_at"], name="entry_guest_history"),
        ]
        verbose_name_plural = "entries"

    def __str__(self):
        return f"{self.name} in {self.race.room}"

    @property
    def done(self):
        return self.status in self.DONE


class Move(models.Model):
    """One accepted move or undo; the entry's moves in ``seq`` order replay its game."""

    MOVE, UNDO = "move", "undo"
    KINDS = [(MOVE, "move"), (UNDO, "undo")]

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="move_log")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=4, choices=KINDS)
    slots = models.JSONField(default=list)
    at = models.DateTimeField()

    class Meta:
        ordering = ["entry", "seq"]
        constraints = [models.UniqueConstraint(fields=["entry", "seq"], name="one_move_per_seq")]

    def __str__(self):
        return f"{self.entry_id}#{self.seq} {self.kind} {'+'.join(self.slots)}"


class QuickSeat(models.Model):
    """A player waiting in the public quick-race queue (polled over HTTP)."""

    player_key = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=24)
    since = models.DateTimeField()
    seen_at = models.DateTimeField()
    race = models.ForeignKey(Race, null=True, blank=True, on_delete=models.CASCADE)

    class Meta:
        ordering = ["since", "id"]

    def __str__(self):
        return f"{self.name} waiting since {self.since:%H:%M:%S}"


class Account(models.Model):
    """The player key an account plays under, on every device it logs in from.

    A guest who signs up keeps their session's key, so their games are theirs;
    logging in puts the account's key into the session (game/accounts.py).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account"
    )
    player_key = models.CharField(max_length=32, unique=True)
    name_hidden = models.BooleanField(
        default=False, help_text="staff hid this name from the leaderboards (game/moderation.py)"
    )

    def __str__(self):
        return self.user.get_username()


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


class PositionVerdict(models.Model):
    """The solver's verdict on one position: a deal after a line of moves.

    Kept per deal and move prefix (`prefix` is a digest of the moves, `moves` their
    number) for the after-game analysis of replays (game/postgame.py): the same
    position, reached by two players or asked about again on another process, is
    solved once. A verdict holds for its solver version; an `unknown` one only for
    the budget it was given (a larger budget may decide it).
    """

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="position_verdicts")
    prefix = models.CharField(max_length=64, help_text="SHA-256 of the moves played, hex")
    moves = models.PositiveSmallIntegerField(help_text="how many moves were played")
    solver_version = models.CharField(max_length=32)
    verdict = models.CharField(max_length=16, choices=Deal.VERDICTS)
    line = models.JSONField(null=True, blank=True, help_text="a winning line from this position")
    budget_s = models.FloatField(help_text="the solver's budget, CPU seconds")
    nodes = models.BigIntegerField()
    seconds = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "prefix", "solver_version"], name="one_verdict_per_position"
            )
        ]

    def __str__(self):
        return f"{self.deal.code} after {self.moves} moves: {self.verdict}"
