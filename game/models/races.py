"""
Races as stored: a race on a deal, its players (`Entry`), their accepted moves and
the quick-race queue. A player's board is never stored: it is the deal replayed
through that player's `Move` rows; `Entry` keeps the few derived numbers
(score, heights, seq) that snapshots and standings read. Once a game is over its rows
are packed into `Entry.packed_moves` and deleted (game/results/move_log.py reads both).
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import pgettext_lazy

from game.models.deals import Deal

NAME_MAX = 24
"""The longest name on a board: a guest's chosen name, an account's username cut to it."""


class Race(models.Model):
    SOLO, DAILY, RACE, QUICK, GHOST, EVENT = "solo", "daily", "race", "quick", "ghost", "event"
    MODES = [  # shown translated (a profile's history); the English is the migrations'
        (SOLO, pgettext_lazy("game mode", "solo")),
        (DAILY, pgettext_lazy("game mode", "daily")),
        (RACE, pgettext_lazy("game mode", "race")),
        (QUICK, pgettext_lazy("game mode", "quick race")),
        (GHOST, pgettext_lazy("game mode", "ghost race")),
        (EVENT, pgettext_lazy("game mode", "event")),
    ]
    MODE_NAMES = dict(MODES)
    """Each mode's name, translated when read (`get_mode_display` translates every mode to
    find one: a profile's 200 of them cost milliseconds)."""
    ALONE = (SOLO, DAILY, GHOST, EVENT)
    """Modes one player plays alone: the game starts when their socket connects."""
    LOBBY, COUNTDOWN, RUNNING, FINISHED = "lobby", "countdown", "running", "finished"
    STATUSES = [(s, s) for s in (LOBBY, COUNTDOWN, RUNNING, FINISHED)]

    room = models.CharField(max_length=8, unique=True)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="races")
    mode = models.CharField(max_length=8, choices=MODES, default=RACE)
    daily_date = models.DateField(null=True, blank=True, db_index=True)
    host_key = models.CharField(max_length=32, blank=True, help_text="player key of the host")
    status = models.CharField(max_length=10, choices=STATUSES, default=LOBBY, db_index=True)
    time_limit_s = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="seconds from the start until the time runs out; none for a solo or ghost game",
    )
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
    rated = models.BooleanField(
        default=False, help_text="a rated quick race: its results move ratings (game/race/rated.py)"
    )
    ghost_of = models.ForeignKey(
        "Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="ghost_races",
        help_text="a ghost race: the recorded game whose progress the player races",
    )
    closes_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="an event's game: the event's end, when its time runs out and its code shows",
    )
    verifies = models.ForeignKey(
        "Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="verification_races",
        help_text="a verification deal: the held result whose pace it must show",
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
        """When the time limit runs out (None before the start, and with no limit)."""
        if self.started_at is None or self.time_limit_s is None:
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
        (FLAGGED, "flagged: unlike a person playing (game/race/fairplay.py)"),
        (CONFIRMED, "confirmed by staff"),
        (DISQUALIFIED, "disqualified by staff"),
    ]
    COUNTED = (CLEAN, CONFIRMED)

    UNVERIFIED, VERIFIED, HELD_REPLAY, HELD_PACE = "", "verified", "replay", "pace"
    VERIFICATIONS = [
        (UNVERIFIED, "not verified (not among the top results)"),
        (VERIFIED, "verified: replayed on the server (game/race/verify.py)"),
        (HELD_REPLAY, "held: its stored result is not what its moves replay to"),
        (HELD_PACE, "held: far faster than the player's history, until a verification deal"),
    ]
    HELD = (HELD_REPLAY, HELD_PACE)

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
    name = models.CharField(max_length=NAME_MAX)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True, help_text="when the player was last seen")
    connected = models.BooleanField(default=False, help_text="present, as last announced")
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
    verification = models.CharField(
        max_length=8, choices=VERIFICATIONS, default=UNVERIFIED, blank=True
    )
    packed_moves = models.BinaryField(
        null=True,
        blank=True,
        editable=False,
        help_text="the finished game's moves, packed (docs/storage.md); its Move rows are gone",
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
            # The ranked daily board: wins in order, then the rest (game/daily/day_board.py).
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
            # The all-time board: an account's ranked daily wins (game/daily/record_boards.py).
            models.Index(
                "user",
                "daily_date",
                "time_ms",
                name="daily_ranked_user_wins",
                condition=Q(
                    ranked=True, status="won", daily_date__isnull=False, user__isnull=False
                ),
            ),
            # A player's history, newest first (game/players/profiles.py).
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
    name = models.CharField(max_length=NAME_MAX)
    since = models.DateTimeField()
    seen_at = models.DateTimeField()
    rated = models.BooleanField(default=False, help_text="waits for a rated race (accounts only)")
    rating = models.FloatField(default=1500.0, help_text="the account's rating when it queued")
    race = models.ForeignKey(Race, null=True, blank=True, on_delete=models.CASCADE)

    class Meta:
        ordering = ["since", "id"]

    def __str__(self):
        return f"{self.name} waiting since {self.since:%H:%M:%S}"
