"""``manage.py pack_moves``: pack every finished game still stored a row a move.

    manage.py pack_moves [--batch 500]

A game is packed in the transaction that ends it (game/results/move_log.py); this packs
the rest: games finished before packing existed (migration 0022 adds the column
only: a migration never imports the engine), and any whose packing was left to
later. First it finishes the races whose time ran out with nobody there to see it
(an event's game left open, a race everyone closed): the clock applies the time
limit, judges and packs them, as the first visitor would have. Safe to run at any
time, and again: `manage.py daily_upkeep` runs it.
"""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from game.models import Race
from game.race import actions
from game.realtime import broadcast
from game.results import move_log


def out_of_time():
    """The rooms of the running races whose time limit is past (few: only races in play)."""
    running = Race.objects.filter(status=Race.RUNNING, time_limit_s__isnull=False)
    now = timezone.now()
    return [
        room
        for room, started, limit in running.values_list("room", "started_at", "time_limit_s")
        if started is not None and started + timedelta(seconds=limit) <= now
    ]


class Command(BaseCommand):
    help = "Pack the moves of every finished game still stored a row a move (docs/storage.md)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=500, help="games a transaction")

    def handle(self, batch, **options):
        if batch < 1:
            self.stderr.write("--batch is a number of games, at least 1")
            return
        rooms = out_of_time()
        for room in rooms:
            broadcast.publish_outcome(room, actions.tick(room))
        self.stdout.write(f"{len(rooms)} races out of time finished")
        self.stdout.write(f"{move_log.pack_finished(batch)} finished games packed")
