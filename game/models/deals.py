"""
Deals as stored: every numbered deal anyone played or staff analysed, every custom
deal staff entered, and the solver's verdicts on positions of finished games.
"""

import secrets
import string

from django.db import models

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

    # Filled in by the solver (game/solver/verdicts.py); null until analysed. Null (not "")
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
        help_text="when an analysis off the request path began (game/solver/background.py)",
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

    def custom_layout(self):
        """The layout a solver job needs beside the code: a custom deal's, None for a
        numbered one (its code is its layout)."""
        return self.layout if self.source == self.CUSTOM else None

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


class PositionVerdict(models.Model):
    """The solver's verdict on one position: a deal after a line of moves.

    Kept per deal and move prefix (`prefix` is a digest of the moves, `moves` their
    number) for the after-game analysis of replays (game/replays/analysis.py): the same
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
