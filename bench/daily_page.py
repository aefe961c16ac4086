"""The day's page (`GET /daily/`) at the rush: the CPU and the statements of one view.

Issue #34: at the daily reset every newcomer opens the day's page first, and the
profiles of bench/rush.py ranked its view second (12-15 % of daphne's samples). This
bench fills a fresh database (`halfmoon_daypage_bench`) with a realistic day, today's:
300 results on its board (wins, losses, flagged, guests: bench/leaderboard.py's mix),
then times the page as three readers see it: a newcomer (a browser never seen), a
guest back who has not played, and an account that has (its own row, its month),
through Django's test client with DEBUG off, as deployed. The requests are paced at
the rush's rate for one process (`--rate`, 16 a second: 2,000 newcomers in 60 s over
two processes), so a part shared for a second is rebuilt as often as in a rush.

It runs two trees in turns, each in a process of its own on the same database: this
checkout and `--against` (a git ref, default main, exported with `git archive`), so a
before and an after are measured alternately in the same run on a shared machine:

    .venv/bin/python bench/daily_page.py                 # 3 rounds, this tree against main
    .venv/bin/python bench/daily_page.py --profile /tmp/daypage.prof   # cProfile, this tree

Per round and reader: the process's CPU per GET (`time.process_time`, Django and the
database driver's side; PostgreSQL's own is not in it), median and mean, and the
statements per GET. Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL).
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import database_url, fresh_database, production_settings  # noqa: E402

NAME = "halfmoon_daypage_bench"
RESULTS = 300
ACCOUNT = 7
"""The account reader: `p7`, whose attempt is on the board."""

TODAYS_CODE, GUESTS_CODE = "HM1-N-AAAAAAC", "HM1-N-AAAAAAG"


def _result(day, n):
    """Result `n` of the day, bench/leaderboard.py's mix: a third lost, one in 97
    flagged, one in 11 a guest's (on the guests' deal), the rest ranked wins."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from game.lobby import alone
    from game.models import Entry
    from game.players import accounts

    key = f"{n:032x}"
    if n % 11:
        joined = timezone.now() - datetime.timedelta(days=30)
        accounts.claim(User.objects.create(username=f"p{n}", date_joined=joined), key)
    race = alone.daily_race(day, key, f"p{n}")
    review = Entry.FLAGGED if n % 97 == 0 else Entry.CLEAN
    won = n % 3 != 0
    Entry.objects.filter(race=race).update(
        status=Entry.WON if won else Entry.RESIGNED,
        score=520 if won else 8 * (n % 60),
        moves=48 + n % 20,
        undos=n % 4,
        time_ms=(60 + n % 600) * 1000,
        review=review,
        ranked=bool(n % 11) and review in Entry.COUNTED,
        verification=Entry.VERIFIED if won and n % 97 else Entry.UNVERIFIED,
        finished_at=timezone.now(),
    )


def fill():
    """Today's day with its `RESULTS` results (through the ORM: the schema moves)."""
    from game.base import days
    from game.models import DailyDeal, Deal

    day = DailyDeal.objects.create(
        date=days.today(), deal=Deal.for_code(TODAYS_CODE), guest_deal=Deal.for_code(GUESTS_CODE)
    )
    for n in range(1, RESULTS + 1):
        _result(day, n)


def _readers():
    """The readers, each a function giving its client: a newcomer (a browser never seen:
    no cookie, each GET, as at the daily reset), a guest back who has not played (their
    session kept), and the account `p<ACCOUNT>`, on the board."""
    from django.contrib.auth.models import User
    from django.test import Client

    newcomer, guest, account = Client(), Client(), Client()
    account.force_login(User.objects.get(username=f"p{ACCOUNT}"))

    def never_seen():  # a new Client would load the middleware again (whitenoise: 95 ms)
        newcomer.cookies.clear()
        return newcomer

    return {"newcomer": never_seen, "guest": lambda: guest, "account": lambda: account}


def _statements(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get("/daily/").status_code == 200
    return len(queries)


def measure(gets, rate):
    """This tree's figures: per reader, CPU per GET and statements per GET (the first
    GET of a second's shared part and one after it, where the tree has one)."""
    readers = _readers()
    for client in readers.values():  # warm: templates, translations, the day's row
        for _ in range(5):
            client().get("/daily/")
    cpu = {name: [] for name in readers}
    for n in range(gets * len(readers)):
        name = list(readers)[n % len(readers)]
        client = readers[name]()
        start = time.process_time()
        assert client.get("/daily/").status_code == 200
        cpu[name].append((time.process_time() - start) * 1000)
        time.sleep(1 / rate)
    found = {}
    for name, times in cpu.items():
        time.sleep(1.1)  # the next GET builds any shared part afresh
        first, then = _statements(readers[name]()), _statements(readers[name]())
        found[name] = {
            "cpu_ms_median": round(statistics.median(times), 2),
            "cpu_ms_mean": round(statistics.mean(times), 2),
            "statements_first": first,
            "statements_then": then,
        }
    return found


def profile(path, gets, rate):
    import cProfile

    profiler = cProfile.Profile(time.process_time)  # the CPU, not the waits on PostgreSQL
    profiler.runcall(measure, gets, rate)
    profiler.dump_stats(path)
    print(f"written {path}: python -m pstats {path}")


def _exported(ref):
    """`ref` of this repository as a plain tree in a temporary directory (no worktree)."""
    where = Path(tempfile.mkdtemp(prefix="daypage-"))
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def _child(tree, args):
    if tree != ROOT:  # the tree measured against may not have this bench yet
        (tree / "bench" / "daily_page.py").write_bytes(Path(__file__).read_bytes())
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(tree / "bench" / "daily_page.py"), "--child"]
    command += ["--gets", str(args.gets), "--rate", str(args.rate)]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--against", default="main", help="the git ref measured beside this tree")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--gets", type=int, default=100, help="GETs a reader a round")
    parser.add_argument("--rate", type=float, default=16, help="GETs a second")
    parser.add_argument("--profile", help="cProfile this tree's GETs into this file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--reuse", action="store_true", help="keep the filled database")
    return parser.parse_args()


def _django(url):
    os.environ["DATABASE_URL"] = url
    production_settings()
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]


def main():
    args = _arguments()
    filled = args.child or args.reuse
    _django(database_url(NAME) if filled else fresh_database(NAME))
    if not filled:
        fill()
    if args.child:
        print(json.dumps(measure(args.gets, args.rate)))
        return
    if args.profile:
        profile(args.profile, args.gets, args.rate)
        return
    trees = {args.against: _exported(args.against), "this tree": ROOT}
    for round_ in range(1, args.rounds + 1):
        for name, tree in trees.items():
            load = os.getloadavg()[0]
            for reader, figures in _child(tree, args).items():
                print(f"round {round_} {name:10} load {load:4.1f} {reader:8} {json.dumps(figures)}")


if __name__ == "__main__":
    main()
