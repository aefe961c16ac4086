"""
What the daily job deletes because nothing will ever read it again (docs/operations.md,
"Data"): the tables that would otherwise grow with every visitor and every day.

Results are never pruned: a finished game is a board's row, a profile's history, a
replay and the explorer's data. What goes is what no page, board or rule reads once
its time is over:

- quick-race seats of players who stopped polling (the queue sweeps them on each poll;
  a queue nobody polls keeps its last seats until this job);
- challenges answered, cancelled or expired more than `KEEP_DAYS` ago (a player's
  lists show the open ones and, for `SHOWN_S`, those just sent);
- races nobody ever started, created more than `KEEP_DAYS` ago: a private race's
  link nobody opened, a table loaded and never connected. They hold no move and no
  result; an event's games are kept (their event lists them).

Expired sessions go too, through Django's `clearsessions` (the command calls it).
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from game.lobby import quick
from game.models import Challenge, QuickSeat, Race

KEEP_DAYS = 30
"""How long a closed challenge or a race nobody started is kept."""


def prune(now=None):
    """Delete what nobody reads any more; {what: rows deleted} (cascades not counted)."""
    now = now or timezone.now()
    old = now - timedelta(days=KEEP_DAYS)
    with transaction.atomic():
        seats = QuickSeat.objects.count()
        quick.sweep(now)
        seats -= QuickSeat.objects.count()
        closed = Challenge.objects.exclude(status=Challenge.OPEN, expires_at__gt=old)
        challenges, _ = closed.filter(created_at__lt=old).delete()
        unstarted = Race.objects.filter(
            status=Race.LOBBY, started_at__isnull=True, created_at__lt=old
        ).exclude(mode=Race.EVENT)
        races = unstarted.count()
        unstarted.delete()
    return {"quick seats": seats, "challenges": challenges, "races never started": races}
