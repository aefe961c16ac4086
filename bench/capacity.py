"""CPU of each part per move and per arrival: the inputs of docs/scaling.md's capacity model.

What a capacity model needs is not how many players one machine holds but what one
move and one arrival cost each part of the system, so that a larger system can be
sized part by part. Here the deployed shape runs on this machine: nginx with
deploy/nginx.conf in front of two daphne processes (game/testing/entrance.py), a
PostgreSQL database of the bench's own and a Redis server of its own (so its CPU is
this bench's alone on a shared machine), and two phases are measured:

- moves: `--players` players in races of 4 through nginx, each moving once a second
  (the rule book's won game), for `--seconds`: CPU seconds of each daphne process,
  the PostgreSQL backends of the bench's database, Redis and nginx's workers, over the
  moves acknowledged in the window;
- arrivals: `--arrivals` newcomers at `--rate` a second (Poisson), each as a guest
  on today's daily deal: GET /daily/ (the page), POST /daily/ (the attempt), the
  race's page it is sent to, the socket opened until its `state`: the same CPU per
  arrival, and the arrival's time from the page request to `state` (p50/p99/max).

The load generator (this process) is on the same cores: its CPU is printed too.
Writes bench/results/capacity.json. Needs PostgreSQL, redis-server and nginx.
"""

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import psutil
from _services import (
    ADMIN_URL,
    ROOT,
    fresh_database,
    percentile,
    seated_race,
    services_missing,
)

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.testing.entrance import entrance
from game.testing.live import Browser, Player, collected_static, environment

RESULTS = Path(__file__).parent / "results" / "capacity.json"
DATABASE = "halfmoon_capacity"
database_name = DATABASE
"""The bench's database as created (BENCH_DATABASE_SUFFIX appended: `fresh_database`)."""
LINE = [list(move) for move in RULE_BOOK_WIN]
RACE_SIZE = 4
NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")


def private_redis(folder):
    """A redis-server of the bench's own on a free port: (process, URL)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([*command, "--dir", str(folder)], stdout=subprocess.DEVNULL)
    for _ in range(100):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def replica_env(database_url, redis_url):
    """The replicas' environment as compose gives it, with the limits per address lifted
    (every simulated player comes from 127.0.0.1)."""
    return environment(
        database_url,
        redis_url,
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        HALFMOON_DAILY_SECRET="bench-daily-" + "x" * 40,
        SECURE_COOKIES="0",
        HALFMOON_TRUSTED_PROXIES="127.0.0.1",
        STATIC_ROOT=str(collected_static()),
        HALFMOON_COUNTDOWN_S="0.5",
        HALFMOON_DAILY_SOLVE_S="0.05",
        HALFMOON_ABANDON_S="3600",
        HALFMOON_CREATE_ADDRESS_LIMIT="100000/60",
        HALFMOON_ADDRESS_FRAME_RATE="100000",
        HALFMOON_ADDRESS_FRAME_BURST="100000",
        LOG_LEVEL="WARNING",
    )


class Parts:
    """The processes whose CPU is counted, by part, and their CPU seconds so far."""

    def __init__(self, site, redis_process):
        nginx = psutil.Process(site.nginx.process.pid)
        self.fixed = {
            "daphne": [psutil.Process(r.process.pid) for r in site.replicas],
            "redis": [psutil.Process(redis_process.pid)],
            "nginx": [nginx, *nginx.children()],
            "client": [psutil.Process()],
        }

    def spent(self):
        totals = {part: sum(_cpu(p) for p in procs) for part, procs in self.fixed.items()}
        totals["postgresql"] = _database_backends()
        return totals


def _cpu(process):
    try:
        times = process.cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system


def _database_backends():
    """{pid: CPU seconds} of the PostgreSQL backends connected to the bench's database."""
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (database_name,)
        ).fetchall()
    return {pid: _cpu(psutil.Process(pid)) for (pid,) in rows if psutil.pid_exists(pid)}


def used_between(before, after):
    """CPU seconds by part between two `Parts.spent()` readings."""
    used = {part: after[part] - before[part] for part in after if part != "postgresql"}
    pg_before = before["postgresql"]
    used["postgresql"] = sum(t - pg_before.get(pid, 0.0) for pid, t in after["postgresql"].items())
    return used


async def moving(player, start, until, acks):
    """Move once a second from `start` (a random phase) until `until`; each `moved`
    frame's arrival time goes to `acks`."""

    async def read():
        async for text in player.ws:
            if json.loads(text)["type"] == "moved":
                acks.append(time.perf_counter())

    reader = asyncio.ensure_future(read())
    for seq, slots in enumerate(LINE, start=1):
        due = start + seq - 1
        if due >= until:
            break
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        await player.send("move", seq=seq, slots=slots)
    await asyncio.sleep(1.0)  # the last answers
    reader.cancel()


async def measure_moves(site, parts, players, seconds):
    """CPU by part per move acknowledged, in a window where every player is moving."""
    races = await asyncio.gather(
        *(seated_race(site, n, RACE_SIZE, RULE_BOOK_DEAL) for n in range(players // RACE_SIZE))
    )
    start = time.perf_counter() + 1.5
    until = start + seconds + 2.0
    acks = []
    everyone = [player for race in races for player in race]
    running = asyncio.gather(*(moving(p, start + random.random(), until, acks) for p in everyone))
    await asyncio.sleep(start + 1.0 - time.perf_counter())
    before, began = parts.spent(), time.perf_counter()
    await asyncio.sleep(seconds)
    after, ended = parts.spent(), time.perf_counter()
    await running
    for player in everyone:
        await player.close()
    moves = sum(1 for at in acks if began <= at <= ended)
    return per_unit(used_between(before, after), moves, ended - began, "move", moves)


def per_unit(used, units, window, unit, counted):
    return {
        f"{unit}s": round(units),
        f"{unit}s_acknowledged_in_run": counted,
        "window_s": round(window, 1),
        "cpu_percent": {part: round(100 * s / window, 1) for part, s in used.items()},
        f"cpu_ms_per_{unit}": {part: round(1000 * s / units, 3) for part, s in used.items()},
    }


async def arrive(site, n, times, errors, sockets):
    """A guest arriving at today's deal: the page, the attempt, the race's page, the socket."""
    began = time.perf_counter()
    browser = Browser()
    try:
        await asyncio.to_thread(browser.get, f"{site.url}/daily/")
        status, url = await asyncio.to_thread(
            browser.submit, f"{site.url}/daily/", {"name": f"g{n}"}
        )
        room = urlsplit(url).path.strip("/").split("/")[-1]
        if status != 200 or "/race/" not in url:
            raise RuntimeError(f"POST /daily/ ended on {status} {url}")
        player = Player(browser, site, room)
        await player.open()
    except Exception as exc:  # noqa: BLE001 - counted by kind, the bench goes on
        response = getattr(exc, "response", None)  # a refused socket's HTTP answer
        kind = f"{type(exc).__name__} {getattr(response, 'status_code', '')}".strip()
        errors[kind] = errors.get(kind, 0) + 1
        return
    times.append(time.perf_counter() - began)
    sockets.append(player)


async def measure_arrivals(site, parts, arrivals, rate):
    await asyncio.to_thread(Browser().get, f"{site.url}/daily/")  # the day's deal chosen
    times, errors, sockets, tasks = [], {}, [], []
    before, began = parts.spent(), time.perf_counter()
    for n in range(arrivals):
        tasks.append(asyncio.ensure_future(arrive(site, n, times, errors, sockets)))
        await asyncio.sleep(random.expovariate(rate))
    await asyncio.gather(*tasks)
    after, window = parts.spent(), time.perf_counter() - began
    for player in sockets:
        await player.close()
    figures = per_unit(used_between(before, after), arrivals, window, "arrival", len(times))
    figures["page_to_state_s"] = (
        {
            "p50": round(percentile(times, 0.5), 3),
            "p99": round(percentile(times, 0.99), 3),
            "max": round(max(times), 3),
        }
        if times
        else None
    )
    figures["errors"] = errors
    return figures


async def bench(args, folder):
    global database_name
    url = fresh_database(DATABASE)
    database_name = urlsplit(url).path.lstrip("/")
    redis_process, redis_url = private_redis(folder)
    try:
        with entrance(NGINX, replica_env(url, redis_url), folder) as site:
            parts = Parts(site, redis_process)
            moves = await measure_moves(site, parts, args.players, args.seconds)
            print_phase("moves", moves)
            arrivals = await measure_arrivals(site, parts, args.arrivals, args.rate)
            print_phase("arrivals", arrivals)
            return {"moves": moves, "arrivals": arrivals}
    finally:
        redis_process.kill()
        redis_process.wait()


def print_phase(name, figures):
    unit = "move" if name == "moves" else "arrival"
    costs = ", ".join(f"{part} {ms} ms" for part, ms in figures[f"cpu_ms_per_{unit}"].items())
    print(f"{name}: {figures[f'{unit}s']} in {figures['window_s']} s; CPU per {unit}: {costs}")
    if name == "arrivals":
        print(f"  page to state: {figures['page_to_state_s']}, errors {figures['errors']}")
    print(f"  CPU %: {figures['cpu_percent']}, load {os.getloadavg()[0]:.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400, help="moving, in races of 4")
    parser.add_argument("--seconds", type=float, default=20.0, help="of moves measured")
    parser.add_argument("--arrivals", type=int, default=200)
    parser.add_argument("--rate", type=float, default=5.0, help="arrivals a second (Poisson)")
    args = parser.parse_args()
    problem = services_missing() or (None if shutil.which("redis-server") else "no redis-server")
    if problem is None and not os.access(NGINX, os.X_OK):
        problem = f"no nginx at {NGINX}"
    if problem:
        print(f"capacity bench skipped: {problem}")
        return
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(bench(args, folder))
    report.update(
        players=args.players,
        arrival_rate_per_s=args.rate,
        load_average={"before": round(load, 2), "after": round(os.getloadavg()[0], 2)},
        cpus=os.cpu_count(),
        python=sys.version.split()[0],
    )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
