"""The rush: newcomers arriving at today's daily deal in one minute, beside players already moving.

A daily deal resets at 00:00 UTC and everyone comes at once (issue #34). Through the
repository's nginx (deploy/nginx.conf, game/testing/entrance.py) in front of two daphne
processes, with PostgreSQL and Redis beside them:

- a base load of players already moving once a second, in races of 4, each race's
  sockets on one replica as nginx routes them: bench/openloop.py's players
  (bench/_players.py), measured alone for `--quiet` seconds first;
- then N newcomers arriving over `--seconds` at a Poisson rate, each a browser with its
  static files cached: the day's page (GET /daily/), its "Play" (a POST naming the
  guest, redirected to the race's page), the socket, its `state`, and the deal's first
  move until acknowledged (game/testing/arrivals.py);
- `--event`: the newcomers join one running event instead (bench/events.py's, begun
  5 s before the rush: its first minute), play its first deal's first move, and keep
  its standings socket open beside their table, as the table's side panel does; how old
  the standings got on every socket is printed;
- `--restart`: a rolling restart (bench/rolling_restart.py's: SIGTERM to one replica,
  started again, routed to again, then the other) a quarter of the way into the rush.
  A newcomer's socket closed by it (1012) is opened again at once and an unanswered
  move sent again, as the client does. The base players here do not reconnect (their
  closes are counted): what must hold is that no acknowledged move is lost and no
  newcomer sees an error.

Printed: each newcomer's time from the page request to its first `state` and to its
first acknowledged move (p50/p99/max), HTTP errors, sockets closed by code, the base
players' ack p50/p99 before the rush and during it, the CPU of each daphne, of nginx,
of this database's PostgreSQL backends, of Redis and of this client over each stretch,
the load average, and every acknowledged move (newcomers' and base players') checked in
the database. The figures and what they showed: docs/performance.md, "The rush".
Writes bench/results/rush.json (rush_event.json with --event, rush_restart.json or
rush_event_restart.json with --restart).

    .venv/bin/python bench/rush.py --base 200 --newcomers 300       # small first
    .venv/bin/python bench/rush.py                                  # the goal: 800 + 2,000
    .venv/bin/python bench/rush.py --restart --profile /tmp/spy     # a deploy in the rush

Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL), Redis (REDIS_URL) and nginx (NGINX or on
PATH); skips otherwise. The newcomers' pages and frames are this client's work too (its
CPU is printed): on a shared machine, quote the load average with every figure.
"""

import argparse
import asyncio
import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
from _players import (
    HELD_P99_MS,
    ProjectSite,
    Stats,
    collector_off,
    cpu_seconds,
    play_race,
    profile,
    seat_all,
    server_environment,
    stored_moves,
)
from _services import ADMIN_URL, REDIS_URL, ROOT, fresh_database, percentile, services_missing
from events import Standings, new_event
from rolling_restart import rolling

from game.engine.examples import RULE_BOOK_WIN
from game.testing.arrivals import DAILY, acknowledged, rush, tally, todays_first_move
from game.testing.entrance import entrance
from game.testing.live import collected_static, environment

RESULTS = Path(__file__).parent / "results" / "rush.json"
DATABASE = "halfmoon_rush"
WARMUP_S = 2.0
AFTER_S = 10.0
"""The base load plays on this long after the rush's last arrival is due."""
GOALS = {"page_to_state_p99_ms": 1000, "base_ack_p99_ms": HELD_P99_MS}
ENTRANCE = {
    "HALFMOON_TRUSTED_PROXIES": "127.0.0.1",
    "PYTHONUNBUFFERED": "1",
    "HALFMOON_EVENT_GUEST_ADDRESS_LIMIT": "100000/60",  # every guest from 127.0.0.1
}


@dataclass
class Door:
    """Where the newcomers come in (a page path), the first move they play there, and,
    at an event, every newcomer's standings socket beside its table."""

    path: str
    first_move: list
    standings: Standings | None = None
    event: int | None = None

    async def seat(self, front, newcomer):
        await self.standings.watch(front, newcomer.browser, self.event)


async def door_of(args, front, database_url):
    """Today's deal, or with --event a running event (bench/events.py's: begun 5 s ago,
    every deal the rule book's) and its standings."""
    if not args.event:
        return Door(DAILY, await asyncio.to_thread(todays_first_move, front, database_url))
    event = await asyncio.to_thread(new_event, database_url)
    return Door(f"/events/{event}/", list(RULE_BOOK_WIN[0]), Standings(), event)


class EntranceSite(ProjectSite):
    """The base load's races through nginx, which puts each race's sockets on one replica."""

    name = "rush"

    def __init__(self, front):  # the replicas are the entrance's: nothing started here
        self.front, self.servers = front, [front, front]
        self.browsers, self.rooms, self.watchers = {}, {}, {}

    @property
    def pids(self):
        return [replica.process.pid for replica in self.front.replicas]


class Meter:
    """CPU seconds so far of each part: the two daphne, nginx (master and workers),
    this database's PostgreSQL backends, Redis and this client."""

    def __init__(self, front, database_url):
        self.front, self.database = front, database_url.rsplit("/", 1)[-1]

    def processes(self):
        parts = {f"daphne {n + 1}": [r.process.pid] for n, r in enumerate(self.front.replicas)}
        nginx = psutil.Process(self.front.nginx.process.pid)
        parts["nginx"] = [nginx.pid, *(child.pid for child in nginx.children())]
        parts["postgres"] = self.backends()
        parts["redis"] = [
            p.pid for p in psutil.process_iter(["name"]) if p.info["name"] == "redis-server"
        ]
        parts["client"] = [os.getpid()]
        return parts

    def backends(self):
        import psycopg

        query = "SELECT pid FROM pg_stat_activity WHERE datname = %s"
        with psycopg.connect(ADMIN_URL) as conn:
            return [pid for (pid,) in conn.execute(query, (self.database,))]

    def read(self):
        """{(part, pid): CPU seconds}, at this moment."""
        seconds = {}
        for part, pids in self.processes().items():
            for pid in pids:
                with contextlib.suppress(psutil.Error):
                    seconds[part, pid] = cpu_seconds(psutil.Process(pid))
        return seconds


def cpu_percent(before, after, seconds):
    """Each part's CPU between two readings, in % of one core (a process that began
    meanwhile counts whole; one that ended, not at all)."""
    used = {}
    for (part, pid), now in after.items():
        used[part] = used.get(part, 0.0) + now - before.get((part, pid), 0.0)
    return {part: round(100 * value / seconds, 1) for part, value in used.items()}


def load_average():
    return [round(value, 2) for value in os.getloadavg()]


def main():
    args = arguments()
    problem = services_missing() or (None if args.nginx else "nginx not found (NGINX=...)")
    if problem:
        print(f"rush bench skipped: {problem}")
        return
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        log_dir = Path(args.log_dir or scratch)
        log_dir.mkdir(parents=True, exist_ok=True)
        report = asyncio.run(bench(args, log_dir))
    print_report(report)
    stem = "rush" + "_event" * args.event + "_restart" * args.restart
    results = RESULTS.with_name(f"{stem}.json")
    results.parent.mkdir(exist_ok=True)
    results.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {results.relative_to(ROOT)}")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=800, help="players already moving (races of 4)")
    parser.add_argument("--newcomers", type=int, default=2000, help="arriving in the rush")
    parser.add_argument("--seconds", type=float, default=60.0, help="the rush's length")
    parser.add_argument("--quiet", type=float, default=15.0, help="base load alone, measured")
    parser.add_argument("--restart", action="store_true", help="a rolling restart in the rush")
    parser.add_argument("--event", action="store_true", help="newcomers join a running event")
    parser.add_argument(
        "--nginx", default=os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    )
    parser.add_argument("--log-dir", help="keep the servers' and nginx's logs here")
    parser.add_argument("--profile", metavar="DIR", help="py-spy of each daphne over the rush")
    return parser.parse_args()


async def bench(args, log_dir):
    database_url = fresh_database(DATABASE)
    env = environment(
        database_url,
        REDIS_URL,
        **{**server_environment(database_url), **ENTRANCE, "STATIC_ROOT": str(collected_static())},
    )
    with entrance(args.nginx, env, log_dir) as front:
        door = await door_of(args, front, database_url)
        site = EntranceSite(front)
        seated, _ = await seat_all(site, args.base, 0)
        print(f"{args.base} base players seated; load average {load_average()}", flush=True)
        report = await measured(args, site, seated, door, Meter(front, database_url))
    report["lost_moves"], report["acknowledged"] = lost_moves(database_url, *report.pop("acked"))
    return report


async def measured(args, site, seated, door, meter):
    """The base load alone, then with the rush (and the restart): the report's figures."""
    start = time.perf_counter() + 1.0
    rush_at = start + WARMUP_S + args.quiet
    stats = Stats(window=(start + WARMUP_S, rush_at + args.seconds + AFTER_S))
    with collector_off(stats.window):
        races = [
            asyncio.ensure_future(play_race(site, index, seats, start, stats.window[1], stats))
            for index, seats in enumerate(seated)
            if not isinstance(seats, BaseException)
        ]
        readings = [await reading_at(meter, stats.window[0])]
        readings.append(await reading_at(meter, rush_at))
        restart = asyncio.ensure_future(restarted(args, site.front, rush_at))
        profiles = profile(site.pids, "rush", args.seconds, args.profile)
        over = asyncio.Event()
        seat = functools.partial(door.seat, site.front) if door.standings else None
        newcomers, stays = await rush(
            site.front, args.newcomers, args.seconds, door.first_move, over, door.path, seat
        )
        readings.append((time.perf_counter(), await asyncio.to_thread(meter.read)))
        racers = [racer for result in await asyncio.gather(*races) for racer in result]
        over.set()
        await asyncio.gather(*stays, restart, *(asyncio.to_thread(p.wait) for p in profiles))
    await asyncio.gather(*(racer.close() for racer in racers), return_exceptions=True)
    report = figures(args, stats, newcomers, readings, await restart)
    if door.standings is not None:
        report["standings"] = door.standings.figures()
        await door.standings.close()
    return report


async def reading_at(meter, moment):
    await asyncio.sleep(max(0.0, moment - time.perf_counter()))
    return time.perf_counter(), await asyncio.to_thread(meter.read)


async def restarted(args, front, rush_at):
    """With --restart, the rolling restart a quarter of the way into the rush: each
    replica's exit code, seconds to exit and seconds until routed to again."""
    if not args.restart:
        return None
    await asyncio.sleep(max(0.0, rush_at + args.seconds / 4 - time.perf_counter()))
    try:
        return await rolling(front)
    except subprocess.TimeoutExpired as stuck:  # said in the report; the entrance stops it
        return f"a replica had not exited {stuck.timeout:.0f} s after its SIGTERM" + dumped(front)


def dumped(front):
    """Where each thread of a replica still running is (py-spy dump), for the report."""
    spy = Path(sys.executable).with_name("py-spy")
    stuck = [r.process.pid for r in front.replicas if r.process.poll() is None]
    dumps = [
        subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True).stdout
        for pid in stuck
    ]
    return "".join(f"\n{dump}" for dump in dumps)


def figures(args, stats, newcomers, readings, restart_steps):
    (quiet_at, quiet), (rush_at, rushed), (done_at, done) = readings
    before = [ack for sent, ack in stats.ack_times if sent < rush_at]
    during = [ack for sent, ack in stats.ack_times if rush_at <= sent < done_at]
    arrived = [n for n in newcomers if "state" in n.times]
    cpu_before = cpu_percent(quiet, rushed, rush_at - quiet_at)
    cpu_during = cpu_percent(rushed, done, done_at - rush_at)
    return {
        "base": {
            "players": args.base,
            "before": base_figures(before, cpu_before),
            "during": base_figures(during, cpu_during),
            "errors": dict(stats.errors),
        },
        "cpu_ms_per_newcomer": per_newcomer(cpu_before, cpu_during, done_at - rush_at, newcomers),
        "newcomers": {
            **tally(newcomers),
            "page_to_state_ms": spread([n.times["state"] for n in arrived]),
            "page_to_ack_ms": spread([n.times["ack"] for n in newcomers if "ack" in n.times]),
            "page_ms": spread([n.times["page"] for n in newcomers if "page" in n.times]),
            "play_ms": spread(
                [n.times["play"] - n.times["page"] for n in newcomers if "play" in n.times]
            ),
        },
        "seconds": args.seconds,
        "rush_took_s": round(done_at - rush_at, 1),
        "restart": restart_steps,
        "goals": GOALS,
        "load_average": load_average(),
        "acked": (stats.acked, acknowledged(newcomers)),
    }


def per_newcomer(before, during, seconds, newcomers):
    """Each part's CPU a newcomer cost, in ms: its CPU during the rush beyond the base
    load's own rate before it, over the newcomers."""
    return {
        part: round(10 * (during[part] - before.get(part, 0.0)) * seconds / len(newcomers), 1)
        for part in during
    }


def base_figures(acks, cpu):
    return {"moves": len(acks), "ack_ms": spread(acks), "cpu_percent": cpu}


def spread(values):
    """p50, p99 and max of `values` (seconds) in ms."""
    if not values:
        return {"p50": None, "p99": None, "max": None}
    return {
        "p50": round(1000 * percentile(values, 0.5), 1),
        "p99": round(1000 * percentile(values, 0.99), 1),
        "max": round(1000 * max(values), 1),
    }


def lost_moves(database_url, base_acked, newcomers_acked):
    """Acknowledged moves not in the database, of how many acknowledged."""
    acked = base_acked | newcomers_acked
    stored = stored_moves(database_url, "game_move", {entry for entry, _ in acked})
    return len(acked - stored), len(acked)


def print_report(report):
    rush_, base = report["newcomers"], report["base"]
    restart = " through a rolling restart" if report["restart"] else ""
    restart += " at a running event" if "standings" in report else ""
    print(
        f"rush: {rush_['arrived']} newcomers over {report['seconds']} s (all arrived and"
        f" answered in {report['rush_took_s']} s) beside {base['players']} base players"
        f"{restart}; load average {report['load_average']}"
    )
    print(f"  page -> first state, ms: {rush_['page_to_state_ms']}")
    print(f"  page -> first ack, ms:   {rush_['page_to_ack_ms']}")
    print(
        f"  the page alone, ms: {rush_['page_ms']};"
        f" its Play (POST, race page), ms: {rush_['play_ms']}"
    )
    print(f"  newcomers without a state: {rush_['no_state']}, without an ack: {rush_['no_ack']}")
    print(
        f"  HTTP errors: {rush_['http_errors'] or 'none'};"
        f" socket closes: {rush_['closes'] or 'none'}"
    )
    print(
        f"  refused: {rush_['refused'] or 'none'}; reconnects: {rush_['reconnects']};"
        f" sockets opened again after a failure: {rush_['socket_retries'] or 'none'}"
    )
    for name in ("before", "during"):
        part = base[name]
        print(
            f"  base players {name} the rush: ack {part['ack_ms']} ms ({part['moves']} moves);"
            f" CPU % of a core: {part['cpu_percent']}"
        )
    print(f"  base players' errors: {base['errors'] or 'none'}")
    print(f"  CPU a newcomer cost beyond the base load's, ms: {report['cpu_ms_per_newcomer']}")
    print(
        f"  acknowledged moves not in the database: {report['lost_moves']}"
        f" of {report['acknowledged']}"
    )
    if "standings" in report:
        print(f"  standings: {report['standings']}")
    if report["restart"]:
        print(f"  restart (exit code, s to exit, s until routed again): {report['restart']}")


if __name__ == "__main__":
    main()
