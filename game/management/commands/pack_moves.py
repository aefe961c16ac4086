"""``manage.py pack_moves``: pack every finished game still stored a row a move.

    manage.py pack_moves [--batch 500]

A game is packed in the transaction that ends it (game/race/move_log.py); this packs
the rest: games finished before packing existed (migration 0022 adds the column
only: a migration never imports the engine), and any whose packing was left to
later. Safe to run at any time, and again: `manage.py daily_upkeep` runs it.
"""

from django.core.management.base import BaseCommand

from game.race import move_log


class Command(BaseCommand):
    help = "Pack the moves of every finished game still stored a row a move (docs/storage.md)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=500, help="games a transaction")

    def handle(self, batch, **options):
        if batch < 1:
            self.stderr.write("--batch is a number of games, at least 1")
            return
        self.stdout.write(f"{move_log.pack_finished(batch)} finished games packed")
