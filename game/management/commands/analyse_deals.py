"""``manage.py analyse_deals``: solve and rate deals in bulk, in parallel, resumably.

    manage.py analyse_deals --first 1000               numbered deals 0 … 999
    manage.py analyse_deals --range 5000 5999          numbered deals 5000 … 5999
    manage.py analyse_deals HM1-N-AAAAAAB HM1-C-QWERTYU
    manage.py analyse_deals --retry-unknown --seconds 30
    manage.py analyse_deals --daily-candidates 28      today's and the next 28 days' daily picks

Deals already analysed by the current solver version are skipped, so an
interrupted run goes on where it stopped. Each worker process solves deals
from their codes and layouts alone; only this process touches the database,
storing each result as it arrives. Workers are spawned, not forked, so no
database connection is ever shared with them. `--daily-candidates` analyses
each coming day's candidates until its automatic pick is known, so the staff's
calendar (game/daily/schedule.py) shows it and the pick itself needs no solving
(game/daily/ahead.py, which the calendar's "Fill the coming four weeks" runs too).
"""

import multiprocessing
import os
import time
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from game.daily.ahead import rounds
from game.engine import BadDealCode, format_code, parse_code
from game.engine.solver import NOT_WINNABLE, SOLVER_VERSION, UNKNOWN, WINNABLE
from game.models import Deal
from game.solver.rows import NoSuchDeal, needs_analysis, rows_of
from game.solver.verdicts import analyse_job, store


class Command(BaseCommand):
    help = "Solve deals and rate their difficulty, storing verdict, winning line and difficulty."

    def add_arguments(self, parser):
        parser.add_argument("codes", nargs="*", help="deal codes, numbered or custom")
        parser.add_argument("--first", type=int, metavar="N", help="numbered deals 0 … N-1")
        parser.add_argument(
            "--range",
            dest="span",
            type=int,
            nargs=2,
            metavar=("A", "B"),
            help="numbered deals A … B, both included",
        )
        parser.add_argument(
            "--daily-candidates",
            type=int,
            metavar="DAYS",
            help="the daily deal candidates of today and the next DAYS days",
        )
        parser.add_argument(
            "--seconds", type=float, default=1.0, help="CPU seconds of search per deal (default 1)"
        )
        parser.add_argument(
            "--retry-unknown",
            action="store_true",
            help="analyse again the deals left unknown (of the selection; all of them if none)",
        )
        parser.add_argument(
            "--force", action="store_true", help="analyse again even deals already analysed"
        )
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)"
        )

    def handle(self, codes, first, span, seconds, retry_unknown, force, workers, **options):
        self.stderr.style_func = None  # progress, not errors: no red on a terminal
        if options["daily_candidates"] is not None:
            self._daily(options["daily_candidates"], seconds, workers)
            return
        selected = _numbered_codes(first, span) + _canonical(codes)
        if not selected and not retry_unknown:
            raise CommandError(
                "say which deals: --first N, --range A B, codes, --daily-candidates DAYS, "
                "or --retry-unknown"
            )
        rows = _rows(selected) if selected else list(Deal.objects.filter(verdict=UNKNOWN))
        todo = [row for row in rows if force or needs_analysis(row, retry_unknown)]
        tally = self._analyse(todo, len(rows) - len(todo), seconds, workers)
        if tally[UNKNOWN]:
            self.stdout.write("still unknown: try --retry-unknown with more --seconds")

    def _analyse(self, todo, skipped, seconds, workers):
        workers = max(1, min(workers, len(todo)))
        self.stderr.write(
            f"analysing {len(todo)} deals ({skipped} already analysed) "
            f"with {seconds:g} CPU s each, {workers} at a time"
        )
        tally = _analyse_all(todo, seconds, workers, Progress(len(todo), self.stderr))
        self.stdout.write(
            f"{len(todo)} analysed: {tally[WINNABLE]} winnable, {tally[NOT_WINNABLE]} not "
            f"winnable, {tally[UNKNOWN]} unknown (solver version {SOLVER_VERSION})"
        )
        return tally

    def _daily(self, ahead, seconds, workers):
        """Analyse the daily candidates of today and the next `ahead` days until each
        day's automatic picks are known (game/daily/ahead.py)."""
        for todo, _, _ in rounds(ahead):
            if todo:
                self._analyse(todo, 0, seconds, workers)
        self.stdout.write(f"the automatic daily pick of {ahead + 1} days is known")


def _numbered_codes(first, span):
    numbers = []
    if first is not None:
        numbers += range(first)
    if span is not None:
        numbers += range(span[0], span[1] + 1)
    try:
        return [format_code(number) for number in numbers]
    except BadDealCode as exc:
        raise CommandError(str(exc)) from None


def _canonical(codes):
    try:
        return [format_code(number, kind) for kind, number in map(parse_code, codes)]
    except BadDealCode as exc:
        raise CommandError(str(exc)) from None


def _rows(codes):
    try:
        return rows_of(codes)
    except NoSuchDeal as exc:
        raise CommandError(str(exc)) from None


def _analyse_all(rows, seconds, workers, progress):
    """Analyse ``rows`` on ``workers`` processes, storing each result as it comes."""
    by_code = {row.code: row for row in rows}
    jobs = [(row.code, row.custom_layout(), seconds) for row in rows]
    tally = Counter()
    with _results(jobs, workers) as results:
        for code, fields in results:
            store(by_code[code], fields)
            tally[fields["verdict"]] += 1
            progress.update(tally)
    progress.close(tally)
    return tally


class _results:
    """``(code, fields)`` as the jobs finish: inline for one worker, else from a process pool."""

    def __init__(self, jobs, workers):
        self.jobs, self.workers, self.pool = jobs, workers, None

    def __enter__(self):
        if self.workers == 1:
            return map(analyse_job, self.jobs)
        self.pool = multiprocessing.get_context("spawn").Pool(self.workers)
        return self.pool.imap_unordered(analyse_job, self.jobs)

    def __exit__(self, *exc_info):
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()


class Progress:
    """A one-line progress bar with the running tally, rate and ETA, on ``out``.

    On a terminal it redraws in place; otherwise (a log file, CI) it writes a
    line at every tenth of the way, so logs stay short.
    """

    WIDTH = 24

    def __init__(self, total, out):
        self.total, self.done, self.out = total, 0, out
        self.live = out.isatty()
        self.started = time.monotonic()
        self._tenths = 0

    def update(self, tally):
        self.done += 1
        tenths = self.done * 10 // self.total
        if self.live:
            self.out.write("\r" + self.line(tally) + "\x1b[K", ending="")
            self.out.flush()
        elif tenths > self._tenths:
            self._tenths = tenths
            self.out.write(self.line(tally))

    def close(self, tally):
        if self.live and self.done:
            self.out.write("")

    def line(self, tally):
        share = self.done / self.total
        filled = round(share * self.WIDTH)
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate else 0.0
        return (
            f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} "
            f"{share:4.0%} · winnable {tally[WINNABLE]} · not {tally[NOT_WINNABLE]} · "
            f"unknown {tally[UNKNOWN]} · {rate:.1f} deals/s · ETA {_clock(eta)}"
        )


def _clock(seconds):
    minutes, seconds = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"
