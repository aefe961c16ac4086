"""This process's CPU per group commit of one move: a connection of a pool checked out
and returned on every commit, against the lane's own connection held open.

    python bench/lane_commit.py [--commits 300] [--rounds 8] [--database-url URL]

At 1.3 moves a batch (bench/openloop.py) a commit's fixed client cost is a move's: the
pool's `connection()` enter and exit, its wait measured, were a sixth of the commit in
py-spy's samples. The pool way is game/race/moves.py as of `BEFORE` (read with `git
show`, so the comparison stays possible once the tree holds only the new way); the
lane way is the tree's. Each way stores `--commits` moves one commit at a time, each
its own batch of one, on the same running race of `ENTRIES` players (each move the
next `seq` of the next entry: every statement stores its move), first through the
commit function alone, then through a one-lane `Writer` as the server calls it (the
lane's own metrics included, the same code in both ways); the ways alternate,
`--rounds` rounds. Figures: this process's CPU per commit (`time.process_time`,
PostgreSQL's own not in it) and wall time per commit, the median of the rounds, and
the median of each round's lane CPU over the pool's.
Written to bench/results/lane_commit.json. A fresh database
(`halfmoon_lane_commit_bench`) unless `--database-url` names a migrated one. Needs
PostgreSQL (BENCH_DATABASE_ADMIN_URL).
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import bench_database, module_at, production_settings  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "lane_commit.json"
NAME = "halfmoon_lane_commit_bench"
BEFORE = "7a6afee"
"""The last commit whose group commit took a pooled connection every commit."""
ENTRIES = 8


def pool_way():
    """game/race/moves.py as of `BEFORE`, as a module of its own."""
    return module_at(BEFORE, "game/race/moves.py", "pool_moves")


def running_race():
    """A running race of `ENTRIES` players: (room, their entries as the statement needs)."""
    from django.utils import timezone

    from game.engine.examples import RULE_BOOK_DEAL
    from game.models import Deal, Entry, Race
    from game.race import actions

    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), "h" * 32, name="P0")
    for n in range(1, ENTRIES):
        actions.add_entry(race, f"{n:032d}", f"P{n}")
    Race.objects.filter(pk=race.pk).update(status=Race.RUNNING, started_at=timezone.now())
    Entry.objects.filter(race=race).update(status=Entry.PLAYING)
    return race.room, list(Entry.objects.filter(race=race).order_by("pk"))


class Moves:
    """The next move of each entry in turn, as `STATEMENT` reads it (seqs go on)."""

    def __init__(self, room, entries):
        self.room, self.entries, self.count = room, entries, 0
        self.seqs = dict.fromkeys((entry.pk for entry in entries), 0)

    def next(self):
        from django.utils import timezone

        from game.engine.examples import RULE_BOOK_WIN
        from game.models import Entry, Move
        from game.race import moves

        entry = self.entries[self.count % len(self.entries)]
        self.count += 1
        self.seqs[entry.pk] += 1
        seq = self.seqs[entry.pk]
        numbers = types.SimpleNamespace(
            pk=entry.pk, score=2, moves=seq, cards_left=102, status=Entry.PLAYING, heights=[]
        )
        slots = list(RULE_BOOK_WIN[0])
        return moves._params(self.room, numbers, seq, Move.MOVE, slots, timezone.now())


async def per_commit(store, moves, commits):
    """(CPU ms, wall ms) per commit of `commits` one-move commits through `store`."""
    made = [moves.next() for _ in range(commits)]
    cpu, wall = time.process_time(), time.perf_counter()
    for params in made:
        event = await store(params)
        assert event is not None, "a move was not stored"
    spent = time.process_time() - cpu, time.perf_counter() - wall
    return tuple(round(seconds * 1000 / commits, 4) for seconds in spent)


def ways(old):
    """{(way, through): a coroutine function storing one move, its event returned}."""
    from game.race import moves

    lane = moves.LaneConnection()
    writers = {"pool": old.Writer(1), "lane": moves.Writer(1)}

    async def pooled(params):
        return (await old._commit([params]))[0]

    async def held(params):
        return (await lane.commit([params]))[0]

    def through_writer(way):
        return lambda params: writers[way].store(params["room"], params)

    return {
        ("pool", "commit"): pooled,
        ("lane", "commit"): held,
        ("pool", "writer"): through_writer("pool"),
        ("lane", "writer"): through_writer("lane"),
    }


async def measure(commits, rounds):
    from channels.db import database_sync_to_async

    from game.race import moves

    old = pool_way()
    moving = Moves(*await database_sync_to_async(running_race)())
    stores, found = ways(old), {}
    for store in stores.values():  # warm-up: connections opened, statements prepared
        await per_commit(store, moving, 20)
    for n in range(rounds):
        for (way, through), store in stores.items():
            cpu_ms, wall_ms = await per_commit(store, moving, commits)
            found.setdefault(through, {}).setdefault(way, []).append((cpu_ms, wall_ms))
            print(f"round {n + 1} {through:6} {way:4} cpu {cpu_ms:.4f} ms  wall {wall_ms:.4f} ms")
    await old.close_pool()
    await moves.close_pool()
    return found


def summary(found):
    """Per path and way: the median CPU and wall ms per commit over the rounds, and
    the median over the rounds of the lane's CPU as a share of the pool's in the same
    round (a shared machine's load moves both alike within a round)."""
    figures = {}
    for through, by_way in found.items():
        medians = {
            way: {
                "cpu_ms": round(statistics.median(cpu for cpu, _ in rounds), 4),
                "wall_ms": round(statistics.median(wall for _, wall in rounds), 4),
            }
            for way, rounds in by_way.items()
        }
        shares = [
            lane / pool for (pool, _), (lane, _) in zip(by_way["pool"], by_way["lane"], strict=True)
        ]
        share = statistics.median(shares)
        figures[through] = {**medians, "lane_cpu_of_pool": round(share, 3)}
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--database-url", help="a migrated database instead of a fresh one")
    args = parser.parse_args()
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    elif bench_database(NAME) is None:
        return
    production_settings()  # DEBUG off, as deployed: no query log
    import django

    django.setup()
    found = asyncio.run(measure(args.commits, args.rounds))
    report = {
        "commits_a_round": args.commits,
        "rounds": args.rounds,
        "load_average": os.getloadavg(),
        "median_per_commit": summary(found),
        "rounds_cpu_wall_ms": found,
    }
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report["median_per_commit"], indent=2))
    print(f"load average {os.getloadavg()}; written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
