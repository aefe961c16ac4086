"""One event of N players on two processes, stepped up — beside races of 4 of N players.

Each of the event's N players joins it over HTTP (the event's page), plays its current
deal on its table's socket (a race of one, on one of the two daphne processes: the
players are spread over both, as the entrance spreads their games' rooms) and keeps
the event's standings socket open beside it, as the table's side panel does. Every
player sends one move a second on its own clock, open loop (bench/openloop.py's
client: `Racer`, `run_round`, every ack checked against the stored moves). The same
run measures races of 4 with the same N (openloop.py's `ProjectSite`), alternating.

Per round: p50/p99 move ack, errors and lost moves, the servers' CPU per move (for
the event it includes the standings: one query and one encoding a second, and each
player's own line), and on every standings socket how old its standings got: the age
of each frame on arrival (server `at` to arrival; one machine, one clock) and the
staleness just before the next one came (its predecessor's `at` to its arrival),
p99 and worst. The goal (issue #19): 2,000 players, p99 ack <= 100 ms, standings at
most 2 s old, CPU per move no higher than in a race of 4. Writes
bench/results/events.json. Needs PostgreSQL and Redis (bench/_services.py).
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openloop
from _services import REDIS_URL, ROOT, Browser, Player, fresh_database, percentile
from openloop import ProjectSite, Seat, ms, print_round, run_round, services_missing
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

RESULTS = Path(__file__).parent / "results" / "events.json"
DATABASE = "halfmoon_bench_events"
STALE_S = 2.0
CREATE = """
import json
from datetime import timedelta
from django.utils import timezone
from game.models import Deal, Event, EventDeal
deal = Deal.for_code("HM1-N-AAAAAAB")
Deal.objects.filter(pk=deal.pk).update(verdict="winnable")
event = Event.objects.create(title="bench", minutes=120,
                             starts_at=timezone.now() - timedelta(seconds=5))
EventDeal.objects.bulk_create(EventDeal(event=event, index=i, deal=deal) for i in range(20))
print(json.dumps(event.pk))
"""


def new_event(database_url):
    """A running event of 20 copies of the rule book's deal (the line the client plays)."""
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": REDIS_URL}
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", CREATE],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


class Standings:
    """Every standings socket of a round: when each frame came and how old it was."""

    def __init__(self):
        self.sockets, self.readers, self.arrivals = [], [], []

    async def watch(self, server, browser, event_id):
        uri = f"ws://127.0.0.1:{server.port}/ws/event/{event_id}/"
        ws = await connect(
            uri, origin=server.url, additional_headers={"Cookie": browser.cookie_header()}
        )
        seen = []
        self.sockets.append(ws)
        self.arrivals.append(seen)
        self.readers.append(asyncio.ensure_future(self.read(ws, seen)))

    @staticmethod
    async def read(ws, seen):
        try:
            async for text in ws:
                if text.startswith('{"type":"standings",'):
                    at = json.loads(text)["at"] / 1000
                    seen.append((time.perf_counter(), time.time(), at))
        except ConnectionClosed:
            pass

    def figures(self):
        """Ages on arrival and staleness before the next frame, over the whole round from
        each socket's first frame (seating included: standings must stay fresh always)."""
        ages, stale, silent = [], [], 0
        for kept in self.arrivals:
            silent += not kept
            ages += [wall - at for _, wall, at in kept]
            stale += [b[1] - a[2] for a, b in zip(kept, kept[1:], strict=False)]
        worst = max(stale, default=None)
        return {
            "standings_sockets": len(self.arrivals),
            "standings_silent_sockets": silent,
            "standings_age_ms": {
                "p50": ms(percentile(ages, 0.5)),
                "p99": ms(percentile(ages, 0.99)),
            },
            "standings_stale_ms": {"p99": ms(percentile(stale, 0.99)), "max": ms(worst)},
            "standings_fresh": worst is not None and worst <= STALE_S and not silent,
        }

    async def close(self):
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
        await asyncio.gather(*self.readers, return_exceptions=True)


class EventSite(ProjectSite):
    """The same two daphne processes' setup; every player of one event."""

    name = "event"
    watching = True
    """Each player keeps the standings socket open (False: the moves alone, to compare)."""

    def __init__(self, database_url, log_dir):
        super().__init__(database_url, log_dir)
        self.database_url = database_url
        self.event_id, self.standings = None, Standings()

    async def new_round(self):
        self.event_id = await asyncio.to_thread(new_event, self.database_url)
        self.browsers, self.standings = {}, Standings()

    async def seat(self, index):
        """Players index*4 … index*4+3 (openloop's groups of 4), each at its current deal."""
        seats = []
        for n in range(openloop.RACE_SIZE):
            number = index * openloop.RACE_SIZE + n
            server = self.servers[number % 2]
            key = (index, n)
            if key not in self.browsers:
                self.browsers[key] = Browser()
                room = await asyncio.to_thread(self.join, server, self.browsers[key], number)
                if self.watching:
                    await self.standings.watch(server, self.browsers[key], self.event_id)
            else:
                room = await asyncio.to_thread(self.next_game, server, self.browsers[key])
            player = Player(self.browsers[key], server, room)
            state = await player.open()
            seats.append(Seat(player.ws, state["you"]["player"]))
        return seats

    def join(self, server, browser, number):
        page = f"{server.url}/events/{self.event_id}/"
        browser.get(page)
        status, url = browser.submit(page, {"name": f"p{number}"})
        if status != 200 or "/race/" not in url:
            raise RuntimeError(f"join refused: {status} {url}")
        return url.rstrip("/").rsplit("/", 1)[-1]

    def next_game(self, server, browser):
        with browser.opener.open(f"{server.url}/events/{self.event_id}/play/", timeout=10) as r:
            return r.url.rstrip("/").rsplit("/", 1)[-1]


SCRAPED = (
    "halfmoon_move_ack_seconds",
    "halfmoon_commit_seconds",
    "halfmoon_commit_batch_moves",
    "halfmoon_db_pool_wait_seconds",
    "halfmoon_heartbeat_seconds",
)


def server_side(site):
    """Each process's own view (its /metrics, since it started): the mean of a move's
    frame received to `moved` sent, of a group commit, of a batch, of a pool wait and of
    a heartbeat, to tell the server's time from the time before a frame is read."""
    out = []
    for server in site.servers:
        _, body = Browser().get(f"{server.url}/metrics")
        sums = {}
        for line in body.decode().splitlines():
            name, _, value = line.partition(" ")
            for metric in SCRAPED:
                if name in (f"{metric}_sum", f"{metric}_count"):
                    sums[name] = float(value)
        out.append(
            {
                metric.removeprefix("halfmoon_"): round(
                    sums[f"{metric}_sum"] / sums[f"{metric}_count"], 4
                )
                for metric in SCRAPED
                if sums.get(f"{metric}_count")
            }
        )
    return out


async def event_round(site, players, args, database_url):
    await site.new_round()
    started = time.perf_counter()
    result = await run_round(site, players, args.seconds, args.warmup, database_url)
    result.update(site.standings.figures())
    result["round_s"] = round(time.perf_counter() - started, 1)
    result["server_side_means"] = await asyncio.to_thread(server_side, site)
    await site.standings.close()
    return result


def print_event(number, result):
    print_round(number, result)
    age, stale = result["standings_age_ms"], result["standings_stale_ms"]
    print(
        f"        standings on {result['standings_sockets']} sockets"
        f" ({result['standings_silent_sockets']} silent): age p50 {age['p50']} p99 {age['p99']}"
        f" ms, stale before the next p99 {stale['p99']} max {stale['max']} ms"
        f"{'' if result['standings_fresh'] else '  -- NOT FRESH'}",
        flush=True,
    )
    print(f"        the processes' own means (s): {result['server_side_means']}", flush=True)


async def bench(args, log_dir):
    database_url = fresh_database(DATABASE)
    event, races = EventSite(database_url, log_dir), ProjectSite(database_url, log_dir)
    results, began = [], time.monotonic()
    try:
        for players in args.steps:
            if time.monotonic() - began > args.budget_s:
                print(f"time budget spent before {players} players")
                break
            result = await event_round(event, players, args, database_url)
            result["round"] = 1
            results.append(result)
            print_event(1, result)
            await asyncio.sleep(2)
            if players <= args.races_up_to:
                result = await run_round(races, players, args.seconds, args.warmup, database_url)
                result["round"] = 1
                result["server_side_means"] = await asyncio.to_thread(server_side, races)
                results.append(result)
                print_round(1, result)
                print(f"        the processes' own means (s): {result['server_side_means']}")
                await asyncio.sleep(2)
            if _overloaded(result if players > args.races_up_to else results[-2]):
                print(f"stopped: the event at {players} players is far past holding")
                break
    finally:
        event.stop()
        races.stop()
    return results


def _overloaded(result):
    """A step past which bigger ones say nothing new: a p99 ack over 10x the goal, or
    moves lost or refused. A step merely not held (a busy second on a shared machine)
    goes on to the next, so every step's figures are on record."""
    p99 = result["ack_ms"]["p99"] or 0
    return p99 > 10 * openloop.HELD_P99_MS or result["lost_moves"] or result["errors"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--steps",
        type=lambda text: [int(n) - int(n) % 4 for n in text.split(",")],
        default=[100, 250, 500, 1000, 2000],
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--budget-s", type=float, default=600.0)
    parser.add_argument(
        "--races-up-to", type=int, default=2000, help="races of 4 measured up to this N"
    )
    parser.add_argument("--no-standings", action="store_true", help="players open no standings")
    parser.add_argument("--log-dir", help="keep the servers' logs here")
    args = parser.parse_args()
    EventSite.watching = not args.no_standings
    problem = services_missing()
    if problem:
        print(f"events bench skipped: {problem}")
        return
    load_before = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory() as scratch:
        results = asyncio.run(bench(args, args.log_dir or scratch))
    report = {
        "processes": 2,
        "moves_per_player_per_s": 1,
        "goal": "2,000 players, p99 ack <= 100 ms, standings <= 2 s old, CPU/move <= races of 4",
        "seconds_per_round": args.seconds,
        "rounds": results,
        "load_average": {"before": load_before, "after": round(os.getloadavg()[0], 2)},
        "cpus": os.cpu_count(),
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
