"""
Result checks: the server judges every finished game from its stored moves.

Like Monkeytype's, the check looks at what a script cannot hide: the server's
own clock. Every accepted move is stored with the instant the server took it
(`Move.at`), so a win whose moves came faster than a person plays is
**flagged**. The player still sees their result; it never counts on a ranked
board; staff confirm or disqualify it in the admin (`Review`, the log of who
decided what and why).

A win is flagged when either
- the median gap between its moves (from the start) is under
  HALFMOON_FLAG_MEDIAN_GAP_S (default 0.4 s), or
- the whole win took less than HALFMOON_FLAG_MIN_WIN_S (default 20 s).
Why those defaults: docs/fair-play.md.
"""

import statistics

from django.conf import settings
from django.db import transaction

from game.deals import daily
from game.models import Entry, Review
from game.race.standings import time_ms


def judge(race):
    """Judge every result of a race that has just finished: time, verdict, ranked."""
    for entry in race.entries.all():
        entry.time_ms = time_ms(entry)
        entry.review = Entry.FLAGGED if too_fast(entry) else Entry.CLEAN
        entry.ranked = rankable(entry) and entry.review in Entry.COUNTED
        entry.save(update_fields=["time_ms", "review", "ranked"])


def rankable(entry):
    """Whether a result may count on a ranked board once judged clean or confirmed: an
    account's, and for a daily attempt one on the day's ranked deal (not the guests')."""
    if entry.user_id is None:
        return False
    return entry.daily_date is None or daily.on_ranked_deal(entry.race)


def too_fast(entry):
    """Whether a win came faster than a person can play it (never for a game not won)."""
    if entry.status != Entry.WON:
        return False
    if entry.time_ms is None or entry.time_ms < settings.HALFMOON_FLAG_MIN_WIN_S * 1000:
        return True
    return median_gap_s(entry) < settings.HALFMOON_FLAG_MEDIAN_GAP_S


def median_gap_s(entry):
    """The median time between one move (or undo) and the next, counted from the start."""
    times = [entry.race.started_at, *entry.move_log.order_by("seq").values_list("at", flat=True)]
    pairs = zip(times, times[1:], strict=False)
    gaps = [(later - earlier).total_seconds() for earlier, later in pairs]
    return statistics.median(gaps) if gaps else 0.0


def decide(entry, staff, decision, reason):
    """A staff decision on a result, logged with who and why; a confirmed account's
    result counts again, a disqualified one never."""
    with transaction.atomic():
        Review.objects.create(entry=entry, staff=staff, decision=decision, reason=reason)
        entry.review = decision
        entry.ranked = rankable(entry) and decision == Entry.CONFIRMED
        entry.save(update_fields=["review", "ranked"])
