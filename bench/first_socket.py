"""A newcomer's first socket on a daily attempt: the careful way against one statement.

At the daily reset every newcomer's first socket starts a game played alone. The
careful way (`actions.connect`, a locked transaction of some ten ORM statements) runs
on the process's one database thread, as the consumer runs it, so a crowd's sockets
take it one at a time; `arrival.connect` starts it in one guarded statement on the
event loop (game/race/alone_start.py). Here, in one process with a deployed one's
settings on a fresh database (`halfmoon_first_socket_bench`), each way starts 100 fresh
attempts one at a time (the time of each, and this process's CPU an arrival:
PostgreSQL's own is not in it) and 100 at once (until all are answered), alternating,
two rounds. Written to
bench/results/first_socket.json; the figures: docs/performance.md, "The rush".
Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL) and Redis (REDIS_URL); skips otherwise.
"""

import asyncio
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import (  # noqa: E402
    bench_database,
    percentile,
    production_settings,
    services_missing,
)

RESULTS = Path(__file__).parent / "results" / "first_socket.json"
NAME = "halfmoon_first_socket_bench"
ARRIVALS = 100
ROUNDS = 2


def attempts(prefix):
    """`ARRIVALS` fresh daily attempts as their Play leaves them: [(room, player key)]."""
    from django.utils import timezone

    from game.engine.examples import RULE_BOOK_DEAL
    from game.models import Deal, Race
    from game.race import actions

    deal, today = Deal.for_code(RULE_BOOK_DEAL), timezone.now().date()
    keys = [f"{prefix}{n:0{32 - len(prefix)}d}" for n in range(ARRIVALS)]
    return [
        (actions.create_race(deal, k, mode=Race.DAILY, name="Ada", daily_date=today).room, k)
        for k in keys
    ]


def ways():
    """{way: the coroutine function answering a first socket}."""
    from channels.db import database_sync_to_async

    from game.race import actions, arrival

    careful = database_sync_to_async(actions.connect)

    async def first_socket(room, key, socket):
        return await arrival.connect(room, key, socket) or await careful(room, key, socket)

    return {"careful": careful, "one_statement": first_socket}


async def one_at_a_time(connect, races):
    cpu, times = time.process_time(), []
    for room, key in races:
        began = time.perf_counter()
        await connect(room, key, "socket")
        times.append((time.perf_counter() - began) * 1000)
    return {
        "p50_ms": round(percentile(times, 0.5), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "cpu_ms": round((time.process_time() - cpu) * 1000 / len(races), 2),
    }


async def at_once(connect, races):
    cpu, began = time.process_time(), time.perf_counter()
    await asyncio.gather(*(connect(room, key, f"s{n}") for n, (room, key) in enumerate(races)))
    return {
        "all_answered_ms": round((time.perf_counter() - began) * 1000),
        "cpu_ms": round((time.process_time() - cpu) * 1000 / len(races), 2),
    }


async def measure():
    from channels.db import database_sync_to_async

    from game.race import moves

    make, found = database_sync_to_async(attempts), {}
    await one_at_a_time(ways()["one_statement"], (await make("w"))[:20])  # warm-up
    for n in range(ROUNDS):
        for way, connect in ways().items():
            for kind, run in (("one_at_a_time", one_at_a_time), ("at_once", at_once)):
                figure = await run(connect, await make(f"{way[0]}{kind[0]}{n}"))
                found.setdefault(way, {}).setdefault(kind, []).append(figure)
                print(f"round {n + 1} {way:13} {kind:13} {figure}")
    await moves.close_pool()
    return found


def main():
    missing = services_missing()
    if missing is not None or bench_database(NAME) is None:
        print(f"SKIPPED: {missing}" if missing else "")
        return
    production_settings()  # DEBUG off, as deployed: no query log
    import django

    django.setup()
    report = {"arrivals": ARRIVALS, "load_average": os.getloadavg(), "ways": asyncio.run(measure())}
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"load average {os.getloadavg()}; written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
