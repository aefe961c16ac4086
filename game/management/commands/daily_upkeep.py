"""``manage.py daily_upkeep``: the daily job, one command so that cron forgets no part.

    manage.py daily_upkeep [--days 28] [--workers N]

It removes the expired sessions (Django's `clearsessions`: sessions live in the
database, and nothing else ever deletes one) and the other rows nobody reads any more
(stale quick seats, old closed challenges, races never started: game/staff/retention.py),
then analyses the coming days' daily
deal candidates (`analyze_deals --daily-candidates`), so the staff's calendar shows
each day's pick and midnight's pick needs no solving, stores the explorer's tree
of every finished day that has none yet (game/daily/explorer.py), creates the
coming two days' events of every recurring schedule (game/events/schedule.py), and
finishes any event over whose end nobody watched (its final ranks and, rated, its
ratings: game/events/standings.py), settles the league weeks over (game/leagues/weeks.py),
and packs every finished game still stored a row a
move (`manage.py pack_moves`: older data, or a game whose packing failed).
"""

from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone

from game.daily import explorer
from game.events import schedule, standings
from game.leagues import weeks
from game.staff import retention


class Command(BaseCommand):
    help = (
        "The daily job: remove expired sessions and stale rows, analyse the coming days' "
        "daily deals, store the explorer of the days that are over, create the scheduled events, "
        "finish the events over, settle the league weeks, pack the finished games' moves."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=28, help="days ahead (default 28)")
        parser.add_argument("--workers", type=int, help="solver processes (default: cores)")

    def handle(self, days, workers, **options):
        expired = Session.objects.filter(expire_date__lt=timezone.now()).count()
        call_command("clearsessions")
        self.stdout.write(f"{expired} expired sessions removed")
        for what, rows in retention.prune().items():
            self.stdout.write(f"{rows} {what} removed")
        more = ["--workers", str(workers)] if workers else []
        call_command(
            "analyze_deals",
            "--daily-candidates",
            str(days),
            *more,
            stdout=self.stdout,
            stderr=self.stderr,
        )
        self.stdout.write(f"explorer stored for {explorer.store_finished()} finished days")
        self.stdout.write(f"{schedule.create_coming()} scheduled events created")
        self.stdout.write(f"{standings.finish_ended()} events over finished")
        self.stdout.write(f"{len(weeks.settle_due())} league weeks settled")
        call_command("pack_moves", stdout=self.stdout, stderr=self.stderr)
