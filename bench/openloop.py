"""Open-loop load: how many players, moving once a second, the project holds — beside a ceiling.

N players in races of 4 on two server processes (PostgreSQL + Redis), each
sending one valid move a second on its own clock, without waiting for the
answer (open loop: a slow server gets more work, not less, as people would
give it). Moves replay the rule book's won game on its deal (HM1-N-AAAAAAB);
a race whose four games are won is replaced by a new one. N steps up (24, 48,
100, 200, …) until no round at N held (p99 ack ≤ 100 ms, no error, no lost move);
then a round of 48 players whose races each have 50 spectators (sockets that
only read: every move is then delivered 53 times). Two servers are measured by
this same client in the same run, alternating rounds:

- `project`: two daphne processes of this repository, each race on one of them
  as the entrance routes it (`--placement split` spreads every race over both:
  any process serves any race, and then every broadcast crosses Redis);
- `split`: the project with every race spread over both processes (what a failover
  or a replica coming back makes for a while), measured in the same run as `project`
  for the ratio of the two;
- `ceiling`: two `bench/ceiling.py` processes — plain asyncio `websockets`, the
  project's engine and protocol, each move stored and acknowledged after its
  commit, each race on one process; committed through the project's own group
  commit (`moves.Writer`, 4 lanes, a batch one statement) unless `--ceiling-commit
  one` (every move its own transaction, the old yardstick).

Every run that measured both ends with the ratio: the players the project held
as a share of the ceiling's, and per step the project's p50 and p99 ack over the
ceiling's; a run that measured `split` beside `project`, with the split's over the
project's the same way.

Per round: moves/s, p50/p99 ack (move sent → `moved`), p50/p99 progress
fan-out (move sent → an opponent's `progress`), errors (any `error` or
`rejected` frame, unanswered move, dropped socket), lost moves (acknowledged
moves missing from the database, every ack checked), CPU of each server
process, the client's own CPU and send lag (when the load generator itself is
the limit, it shows here), and the load average. Writes
bench/results/openloop.json and openloop.svg.

The default run (600, 1,000, 1,400 and 1,800 players, two rounds of 15 s each per
step and server, the three servers) starts no step after 15 minutes and takes about
twenty; `--steps`, `--rounds`, `--seconds`, `--servers` and `--budget-s` change it.
The client's own garbage collector is off while a round runs (`Pauses`). Needs
PostgreSQL (BENCH_DATABASE_ADMIN_URL) and Redis (REDIS_URL); skips otherwise.
"""

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import math
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import psutil
from _services import (
    ADMIN_URL,
    DAILY_SECRET,
    REDIS_URL,
    ROOT,
    SECRET_KEY,
    Browser,
    Player,
    fresh_database,
    percentile,
    services_missing,
    start_servers,
)
from _services import (
    database_url as named_database_url,
)
from _services import (
    stored_moves as stored_moves_of,
)
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN

RESULTS = Path(__file__).parent / "results" / "openloop.json"
CHART = RESULTS.with_suffix(".svg")
DATABASE = "halfmoon_openloop"
RACE_SIZE = 4
LINE = [list(move) for move in RULE_BOOK_WIN]
HELD_P99_MS = 100
SEATING = 16
"""Races seated at once: setting up is not what is measured, but must not take minutes."""


@dataclass
class Seat:
    ws: object
    player: int


class ProjectSite:
    """Two daphne processes of this repository. `placement` "room" puts each race on one
    process, as the entrance does (deploy/nginx.conf routes by room); "split" spreads
    every race over both, the worst case, where each broadcast crosses Redis."""

    name, move_table = "project", "game_move"
    placement = "room"

    def __init__(self, database_url, log_dir):
        env = {
            "DATABASE_URL": database_url,
            "REDIS_URL": REDIS_URL,
            "DEBUG": "0",
            "SECRET_KEY": SECRET_KEY,
            "HALFMOON_DAILY_SECRET": DAILY_SECRET,
            "SECURE_COOKIES": "0",  # the client speaks plain HTTP on loopback
            "HALFMOON_METRICS_ALLOW": "127.0.0.1/32",  # read each round, whatever the shell says
            "HALFMOON_COUNTDOWN_S": "0.5",
            "HALFMOON_DAILY_SOLVE_S": "0.05",
            "HALFMOON_ABANDON_S": "3600",  # a round's closed races are not swept during the next
            # Every simulated player comes from 127.0.0.1: lift the per-address limits.
            "HALFMOON_SOCKETS_PER_ADDRESS": "100000",
            "HALFMOON_CREATE_ADDRESS_LIMIT": "100000/60",
            "HALFMOON_ADDRESS_FRAME_RATE": "100000",
            "HALFMOON_ADDRESS_FRAME_BURST": "100000",
            "LOG_LEVEL": "WARNING",
        }
        site_logs = Path(log_dir) / self.name  # project and split side by side
        site_logs.mkdir(exist_ok=True)
        self.servers = start_servers(2, env, site_logs)
        self.browsers, self.rooms, self.watchers = {}, {}, {}

    @property
    def pids(self):
        return [server.process.pid for server in self.servers]

    async def seat(self, index):
        """A started race of RACE_SIZE players, on one process or alternately on each."""
        if self.placement == "split":
            servers = [self.servers[n % 2] for n in range(RACE_SIZE)]
        else:
            servers = [self.servers[index % 2]] * RACE_SIZE
        if index not in self.browsers:
            browsers = [Browser() for _ in range(RACE_SIZE)]
            for browser, server in zip(browsers, servers, strict=True):
                await asyncio.to_thread(browser.get, f"{server.url}/")
            self.browsers[index] = browsers
        browsers = self.browsers[index]
        body = {"deal": RULE_BOOK_DEAL, "name": f"r{index}p0"}
        created = await asyncio.to_thread(browsers[0].post, f"{servers[0].url}/api/races/", body)
        players = [Player(b, s, created["room"]) for b, s in zip(browsers, servers, strict=True)]
        for n, player in enumerate(players):
            if n and not player.browser.cookie("sessionid"):  # the race's page gives a key
                url = f"{player.server.url}/race/{created['room']}/"
                await asyncio.to_thread(player.browser.get, url)
            await player.open()
            if n:
                await player.send("join", name=f"r{index}p{n}")
                await player.expect("state")
        self.rooms[index] = created["room"]
        await players[0].send("start")
        seats = []
        for player in players:
            await player.expect("started", timeout=30)
            state = await player.expect("state", timeout=30)
            seats.append(Seat(player.ws, state["you"]["player"]))
        return seats

    async def watch(self, index, count):
        """`count` spectators of race `index`, each from a browser of its own, on the
        race's process."""
        server = self.servers[index % 2]
        if index not in self.watchers:
            self.watchers[index] = [Browser() for _ in range(count)]
            for browser in self.watchers[index]:  # the race's page gives a spectator a key
                await asyncio.to_thread(browser.get, f"{server.url}/race/{self.rooms[index]}/")
        watchers = [Player(b, server, self.rooms[index]) for b in self.watchers[index][:count]]
        for watcher in watchers:
            await watcher.open()
        return [watcher.ws for watcher in watchers]

    def scrape(self):
        """Each process's own /metrics (game/base/metrics.py), summed: what an operator's
        Prometheus would read from the two replicas; None if a process did not answer
        (the round is measured all the same)."""
        totals = collections.Counter()
        for server in self.servers:
            try:
                with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as answer:
                    text = answer.read().decode()
            except OSError as exc:
                print(f"  /metrics of {server.url} not read: {exc}", flush=True)
                return None
            for family in text_string_to_metric_families(text):
                for sample in family.samples:
                    if sample.name in SCRAPED or sample.name == f"{ACK_HISTOGRAM}_bucket":
                        totals[sample.name, sample.labels.get("le")] += sample.value
        return totals

    def stop(self):
        for server in self.servers:
            server.stop()


SCRAPED = (
    "halfmoon_moves_acknowledged_total",
    "halfmoon_sockets_open",
    "halfmoon_races_open",
    "halfmoon_commit_batch_moves_sum",
    "halfmoon_commit_batch_moves_count",
)
ACK_HISTOGRAM = "halfmoon_move_ack_seconds"


def scraped_figures(before, after):
    """What the servers' /metrics said of a round: moves acknowledged over it, its p99
    ack by the histogram's buckets (the bucket's upper bound), the moves per commit,
    sockets and races open at its end."""
    if before is None or after is None:
        return None
    delta = collections.Counter({key: after[key] - before[key] for key in after})
    buckets = sorted((float(le), n) for (name, le), n in delta.items() if name.endswith("_bucket"))
    answered = buckets[-1][1] if buckets else 0
    p99 = next(le for le, n in buckets if n >= 0.99 * answered) if answered else None
    commits = delta[("halfmoon_commit_batch_moves_count", None)]
    return {
        "moves_acknowledged": int(delta[("halfmoon_moves_acknowledged_total", None)]),
        "ack_p99_bucket_ms": None if p99 in (None, math.inf) else round(p99 * 1000, 1),
        "moves_per_commit": round(delta[("halfmoon_commit_batch_moves_sum", None)] / commits, 2)
        if commits
        else None,
        "sockets_open": int(after[("halfmoon_sockets_open", None)]),
        "races_open": int(after[("halfmoon_races_open", None)]),
    }


class CeilingSite:
    """Two bench/ceiling.py processes; each race on one of them."""

    name, move_table = "ceiling", "ceiling_move"
    script = Path(__file__).with_name("ceiling.py")
    commit = "group"

    def __init__(self, database_url, log_dir):
        subprocess.run(
            [
                sys.executable,
                self.script,
                "--create-tables",
                "--database-url",
                database_url,
            ],
            check=True,
        )
        self.ports, self.processes, self.logs = [], [], []
        for n in range(2):
            port = free_port()
            log = open(Path(log_dir) / f"ceiling-{n}.log", "w")  # noqa: SIM115 - closed in stop()
            command = [sys.executable, self.script, "--port", str(port), "--commit", self.commit]
            self.processes.append(
                subprocess.Popen(
                    [*command, "--database-url", database_url, "--deal", RULE_BOOK_DEAL],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            self.ports.append(port)
            self.logs.append(log)
        for port in self.ports:
            wait_for_port(port)
        self.rooms, self.room_of = 0, {}

    async def watch(self, index, count):
        url = f"ws://127.0.0.1:{self.ports[index % 2]}/ws/race/{self.room_of[index]}/"
        return [await connect(url, open_timeout=10) for _ in range(count)]

    @property
    def pids(self):
        return [process.pid for process in self.processes]

    async def seat(self, index):
        self.rooms += 1
        room, port = f"C{self.rooms:07d}", self.ports[index % 2]
        self.room_of[index] = room
        seats = []
        for n in range(RACE_SIZE):
            ws = await connect(f"ws://127.0.0.1:{port}/ws/race/{room}/", open_timeout=10)
            await ws.send(json.dumps({"type": "join", "name": f"r{index}p{n}"}))
            state = json.loads(await asyncio.wait_for(ws.recv(), 10))
            seats.append(Seat(ws, state["you"]["player"]))
        return seats

    def scrape(self):
        return None  # the ceiling has no /metrics

    def stop(self):
        for process, log in zip(self.processes, self.logs, strict=True):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


class SplitSite(ProjectSite):
    """The project with every race spread over both processes, as its own site, so that
    `--servers project,split` measures both placements in alternating rounds of one run."""

    name = "split"
    placement = "split"


SITES = {site.name: site for site in (ProjectSite, CeilingSite, SplitSite)}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port}")


@dataclass
class Stats:
    """Everything one round measured, from the client's side."""

    window: tuple
    sent: dict = field(default_factory=dict)  # (player, seq) -> perf_counter at send
    acks: list = field(default_factory=list)
    fanout: list = field(default_factory=list)
    lags: list = field(default_factory=list)
    acked: set = field(default_factory=set)
    errors: collections.Counter = field(default_factory=collections.Counter)
    slow: collections.Counter = field(default_factory=collections.Counter)
    """Acks over HELD_P99_MS by the second of the window their move was sent in: a burst
    in one or two seconds is the machine stalling (others' work, a checkpoint), a
    spread over all seconds is the server not keeping up."""

    def measured(self, sent_at):
        return self.window[0] <= sent_at < self.window[1]


class Pauses:
    """The client's own garbage collections over 5 ms, by the second of the window they
    began in: while one runs no answer is read, so acks due then are timed late. With
    its collector on, this client paused over 5 ms four times a second at 1,400
    players (5-25 ms each, once 132 ms): those were charged to whichever server was
    measured. So a round runs with the client's collector off (`run_round`), and this
    count shows that it stayed off (all zeros)."""

    LONG_S = 0.005

    def __init__(self, window):
        self.window, self.began, self.by_second = window, None, collections.Counter()
        self.longest = 0.0

    def __call__(self, phase, info):
        now = time.perf_counter()
        if phase == "start":
            self.began = now
            return
        measured = self.began is not None and self.window[0] <= self.began < self.window[1]
        if measured and now - self.began > self.LONG_S:
            self.by_second[int(self.began - self.window[0])] += 1
            self.longest = max(self.longest, now - self.began)


class Racer:
    """One player's socket: a reader that times answers, and a pacer that moves once a second."""

    def __init__(self, seat, stats):
        self.seat, self.stats = seat, stats
        self.answered = asyncio.Event()
        self.reader = asyncio.ensure_future(self.read())

    async def read(self):
        stats, me = self.stats, self.seat.player
        try:
            async for text in self.seat.ws:
                now = time.perf_counter()
                frame = json.loads(text)
                kind = frame["type"]
                if kind == "moved":
                    sent = stats.sent[(me, frame["seq"])]
                    stats.acked.add((me, frame["seq"]))
                    if stats.measured(sent):
                        stats.acks.append(now - sent)
                        if now - sent > HELD_P99_MS / 1000:
                            stats.slow[int(sent - stats.window[0])] += 1
                    if frame["seq"] == len(LINE):
                        self.answered.set()
                elif kind == "progress" and frame["player"] != me:
                    sent = stats.sent.get((frame["player"], frame["seq"]))
                    if sent is not None and stats.measured(sent):
                        stats.fanout.append(now - sent)
                elif kind in ("rejected", "error"):
                    stats.errors[f"{kind} {frame['code']}"] += 1
                    self.answered.set()
        except ConnectionClosed:
            if not self.answered.is_set():
                stats.errors["socket closed"] += 1

    async def pace(self, start, until):
        """Send the line's moves at start, start+1 s, …, never waiting for an answer."""
        for seq, slots in enumerate(LINE, start=1):
            due = start + seq - 1
            if due >= until:
                return False
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            now = time.perf_counter()
            self.stats.lags.append(now - due)
            self.stats.sent[(self.seat.player, seq)] = now
            frame = {"type": "move", "seq": seq, "slots": slots}
            try:
                await self.seat.ws.send(json.dumps(frame))
            except ConnectionClosed:
                return False
        return True

    async def close(self):
        self.answered.set()
        await self.seat.ws.close()
        await self.reader


async def play_race(site, index, seats, start, until, stats):
    """One race, then another each time all four games are won, until `until`."""
    while True:
        racers = [Racer(seat, stats) for seat in seats]
        phases = [start + random.random() for _ in racers]
        finished = await asyncio.gather(
            *(racer.pace(phase, until) for racer, phase in zip(racers, phases, strict=True))
        )
        if all(finished) and time.perf_counter() < until - 2:
            for racer in racers:
                with_timeout = asyncio.wait_for(racer.answered.wait(), 5)
                await asyncio.gather(with_timeout, return_exceptions=True)
                await racer.close()
            try:
                seats = await site.seat(index)
            except Exception as exc:
                stats.errors[f"seat {type(exc).__name__}"] += 1
                return []
            start = time.perf_counter()
            continue
        return racers


async def seat_all(site, players, spectators):
    """Every race of the round seated (and its spectators): (seats or the exception of
    each race, the watchers)."""
    seating, watchers = asyncio.Semaphore(SEATING), []

    async def seat(index):
        async with seating:
            seats = await site.seat(index)
            if spectators:
                watchers.append(Watcher(await site.watch(index, spectators)))
            return seats

    seated = await asyncio.gather(
        *(seat(index) for index in range(players // RACE_SIZE)), return_exceptions=True
    )
    return seated, watchers


@contextlib.contextmanager
def collector_off(window):
    """The client's collector off for a round (see `Pauses`), on again whatever happens."""
    pauses = Pauses(window)
    gc.callbacks.append(pauses)
    gc.collect()
    gc.disable()
    try:
        yield pauses
    finally:
        gc.enable()
        gc.callbacks.remove(pauses)


SCRAPE_LEAD_S = 0.25
"""The servers' /metrics are read this long before a round's window, not in it."""


async def measured_window(site, players, seconds, races):
    """The races played out from the window's start: (their racers, the CPU seconds
    each server process, the client and PostgreSQL used meanwhile)."""
    processes, client = [psutil.Process(pid) for pid in site.pids], psutil.Process()
    profiles = profile(site, players, seconds)
    before = [cpu_seconds(p) for p in processes], cpu_seconds(client), database_cpu_seconds()
    racers = [racer for result in await asyncio.gather(*races) for racer in result]
    after = database_cpu_seconds()
    used = (
        [cpu_seconds(p) - was for p, was in zip(processes, before[0], strict=True)],
        cpu_seconds(client) - before[1],
        sum(spent - before[2].get(pid, 0.0) for pid, spent in after.items()),
    )
    for profiler in profiles:
        await asyncio.to_thread(profiler.wait)
    return racers, used


async def wind_up(site, stats, racers, watchers, database_url):
    """After a round: every move answered or given up on, the sockets closed, every ack
    checked against the stored moves: (acknowledged moves not stored, frames the
    spectators read)."""
    await drain(stats, deadline=time.perf_counter() + 3)
    unanswered = len(stats.sent) - len(stats.acked) - rejected_count(stats)
    if unanswered > 0:
        stats.errors["unanswered"] += unanswered
    await asyncio.gather(*(racer.close() for racer in racers), return_exceptions=True)
    spectator_frames = sum(watcher.frames for watcher in watchers)
    await asyncio.gather(*(watcher.close() for watcher in watchers), return_exceptions=True)
    stored = stored_moves(database_url, site.move_table, {p for p, _ in stats.acked})
    return len(stats.acked - stored), spectator_frames


async def run_round(site, players, seconds, warmup, database_url, spectators=0):
    seated, watchers = await seat_all(site, players, spectators)
    start = time.perf_counter() + 1.0
    until = start + warmup + seconds
    stats = Stats(window=(start + warmup, until))
    for failure in (result for result in seated if isinstance(result, BaseException)):
        stats.errors[f"seat {type(failure).__name__}"] += 1
    with collector_off(stats.window) as pauses:
        races = [
            asyncio.ensure_future(play_race(site, index, seats, start, until, stats))
            for index, seats in enumerate(seated)
            if not isinstance(seats, BaseException)
        ]
        await asyncio.sleep(max(0.0, stats.window[0] - SCRAPE_LEAD_S - time.perf_counter()))
        scraped = await asyncio.to_thread(site.scrape)
        await asyncio.sleep(max(0.0, stats.window[0] - time.perf_counter()))
        racers, (cpu, client_cpu, database_cpu) = await measured_window(
            site, players, seconds, races
        )
    if scraped is not None:
        scraped = scraped_figures(scraped, await asyncio.to_thread(site.scrape))
    lost, spectator_frames = await wind_up(site, stats, racers, watchers, database_url)
    moves = sum(
        1 for key, sent in stats.sent.items() if key in stats.acked and stats.measured(sent)
    )
    result = figures(site, players, seconds, stats, moves, lost, cpu, client_cpu)
    result["database_cpu_percent"] = round(100 * database_cpu / seconds, 1)
    result["database_cpu_ms_per_move"] = round(1000 * database_cpu / moves, 2) if moves else None
    result["spectators_per_race"] = spectators
    result["client_gc_pauses_by_second"] = [pauses.by_second[n] for n in range(int(seconds))]
    result["client_gc_longest_ms"] = ms(pauses.longest)
    result["metrics"] = scraped
    result["spectator_frames_per_s"] = round(spectator_frames / (warmup + seconds), 1)
    return result


PROFILE_DIR = None
"""`--profile DIR`: py-spy samples of each server process over each measured window."""


def profile(site, players, seconds):
    """py-spy recording each server process of `site` for the measured window (without
    pausing it: --nonblocking), as collapsed stacks in PROFILE_DIR; [] without it."""
    if PROFILE_DIR is None:
        return []
    spy = Path(sys.executable).with_name("py-spy")
    started = []
    for n, pid in enumerate(site.pids):
        out = Path(PROFILE_DIR) / f"{site.name}-{players}-{int(time.time())}-{n}.txt"
        command = [spy, "record", "--pid", str(pid), "--duration", str(int(seconds))]
        command += ["--rate", "200", "--format", "raw", "--nonblocking", "--output", out]
        started.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
    return started


class Watcher:
    """A race's spectators: they read every frame and say nothing."""

    def __init__(self, sockets):
        self.sockets, self.frames = sockets, 0
        self.readers = [asyncio.ensure_future(self.read(ws)) for ws in sockets]

    async def read(self, ws):
        try:
            async for _ in ws:
                self.frames += 1
        except ConnectionClosed:
            pass

    async def close(self):
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
        await asyncio.gather(*self.readers, return_exceptions=True)


def rejected_count(stats):
    return sum(n for key, n in stats.errors.items() if key.startswith(("rejected", "error")))


async def drain(stats, deadline):
    """Wait until every sent move is answered, or the deadline passes."""
    while time.perf_counter() < deadline:
        if len(stats.acked) + rejected_count(stats) >= len(stats.sent):
            return
        await asyncio.sleep(0.05)


def database_cpu_seconds():
    """{pid: CPU seconds so far} of the PostgreSQL backends connected to the bench's
    database: its servers' share of PostgreSQL, not the other engineers' on a shared
    machine (PostgreSQL's own background writers, shared by all, are left out). The
    servers' pools keep their connections through a round; one opened during it counts
    from zero."""
    import psycopg

    name = urlsplit(named_database_url(DATABASE)).path.lstrip("/")
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        pids = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    spent = {}
    for (pid,) in pids:
        with contextlib.suppress(psutil.Error):  # a backend that ended meanwhile
            spent[pid] = cpu_seconds(psutil.Process(pid))
    return spent


def cpu_seconds(process):
    times = process.cpu_times()
    return times.user + times.system


def stored_moves(database_url, table, players):
    import psycopg

    with psycopg.connect(database_url) as conn:
        if table == "game_move":  # the project's: a finished game's are packed
            return stored_moves_of(conn, players)
        rows = conn.execute(
            f"SELECT entry_id, seq FROM {table} WHERE entry_id = ANY(%s)", (list(players),)
        ).fetchall()
    return set(rows)


def ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


def figures(site, players, seconds, stats, moves, lost, cpu, client_cpu):
    ack_p99 = ms(percentile(stats.acks, 0.99))
    errors = dict(stats.errors)
    return {
        "server": site.name,
        "players": players,
        "seconds": seconds,
        "moves_per_s": round(moves / seconds, 1),
        "ack_ms": {"p50": ms(percentile(stats.acks, 0.5)), "p99": ack_p99},
        "fanout_ms": {
            "p50": ms(percentile(stats.fanout, 0.5)),
            "p99": ms(percentile(stats.fanout, 0.99)),
        },
        "errors": errors,
        "slow_acks_by_second": [stats.slow[n] for n in range(int(seconds))],
        "lost_moves": lost,
        "cpu_percent": [round(100 * used / seconds, 1) for used in cpu],
        "cpu_ms_per_move": round(1000 * sum(cpu) / moves, 2) if moves else None,
        "client_cpu_percent": round(100 * client_cpu / seconds, 1),
        "send_lag_ms_p99": ms(percentile(stats.lags, 0.99)),
        "load_average": round(os.getloadavg()[0], 2),
        "held": bool(moves) and not errors and not lost and ack_p99 <= HELD_P99_MS,
    }


def print_round(number, result):
    ack, fan = result["ack_ms"], result["fanout_ms"]
    errors = ", ".join(f"{k}: {v}" for k, v in result["errors"].items()) or "none"
    print(
        f"round {number} {result['server']:>7} {result['players']:>5} players"
        f"{watched(result)}: "
        f"{result['moves_per_s']:>6} moves/s, ack p50 {ack['p50']} p99 {ack['p99']} ms, "
        f"fan-out p50 {fan['p50']} p99 {fan['p99']} ms, lost {result['lost_moves']}, "
        f"errors {errors}, cpu {result['cpu_percent']} % ({result['cpu_ms_per_move']} ms/move), "
        f"client cpu {result['client_cpu_percent']} %, "
        f"database cpu {result['database_cpu_percent']} % ({result['database_cpu_ms_per_move']}"
        f" ms/move), load {result['load_average']}, "
        f"acks > {HELD_P99_MS} ms by second {result['slow_acks_by_second']}"
        f"{client_paused(result)}{said_by_metrics(result['metrics'])}"
        f"{'' if result['held'] else '  -- NOT HELD'}",
        flush=True,
    )


def client_paused(result):
    """The client's own collections over 5 ms, only when there were any (see `Pauses`)."""
    if not any(result["client_gc_pauses_by_second"]):
        return ""
    return (
        f", the client's collections > 5 ms by second {result['client_gc_pauses_by_second']}"
        f" (longest {result['client_gc_longest_ms']} ms)"
    )


def said_by_metrics(figures):
    if figures is None:
        return ""
    p99 = figures["ack_p99_bucket_ms"]
    return (
        f"; its /metrics: {figures['moves_acknowledged']} moves acknowledged, p99 ack"
        f" {'unknown' if p99 is None else f'<= {p99} ms'}, {figures['moves_per_commit']} moves"
        f" a commit, {figures['sockets_open']} sockets and {figures['races_open']} races open"
    )


def watched(result):
    spectators = result["spectators_per_race"]
    return f" ({spectators} spectators a race)" if spectators else ""


def summary(results):
    """Per server: per N the rounds that held; the most players held by at least half of
    the rounds (a server steps on while any round at N held: one noisy round on a shared
    machine does not end its run). Rounds with spectators are summed up apart."""
    table = {}
    for result in results:
        if result["spectators_per_race"]:
            continue
        table.setdefault(result["server"], {}).setdefault(result["players"], []).append(result)
    out = {}
    for server, by_n in table.items():
        steps = {}
        for n, rounds in sorted(by_n.items()):
            held = sum(r["held"] for r in rounds)
            steps[n] = {
                "rounds_held": f"{held} of {len(rounds)}",
                "ack_ms_p50_median": _median(r["ack_ms"]["p50"] for r in rounds),
                "ack_ms_p99_median": _median(r["ack_ms"]["p99"] for r in rounds),
                "moves_per_s_median": _median(r["moves_per_s"] for r in rounds),
                "cpu_ms_per_move_median": _median(r["cpu_ms_per_move"] or None for r in rounds),
            }
        held = [n for n, rs in by_n.items() if 2 * sum(r["held"] for r in rs) >= len(rs)]
        out[server] = {"players_held": max(held, default=0), "steps": steps}
    for result in results:
        if result["spectators_per_race"]:
            watched = out.setdefault(result["server"], {}).setdefault("with_spectators", [])
            watched.append(
                {
                    "players": result["players"],
                    "spectators_per_race": result["spectators_per_race"],
                    "ack_ms_p99": result["ack_ms"]["p99"],
                    "spectator_frames_per_s": result["spectator_frames_per_s"],
                    "held": result["held"],
                }
            )
    return out


def _median(values):
    present = [value for value in values if value is not None]
    return round(statistics.median(present), 2) if present else None


def ratio(summary, ceiling_commit, measured="project", against="ceiling"):
    """One server against another of the same run (the project against the ceiling, or
    the split placement against the project's): players held (a share of the other's)
    and, per step both measured, the first's ack medians over the other's."""
    first, second = summary.get(measured), summary.get(against)
    if not first or not second or "steps" not in first or "steps" not in second:
        return None
    held = first["players_held"], second["players_held"]
    steps = {}
    for n, mine in first["steps"].items():
        theirs = second["steps"].get(n)
        if theirs is None:
            continue
        steps[n] = {
            f"{p}_ack_ms": [mine[f"ack_ms_{p}_median"], theirs[f"ack_ms_{p}_median"]]
            for p in ("p50", "p99")
        }
        for p in ("p50", "p99"):
            a, b = steps[n][f"{p}_ack_ms"]
            steps[n][f"{p}_times_{against}"] = round(a / b, 2) if a and b else None
    figures = {
        "measured": measured,
        "against": against,
        "players_held": list(held),
        f"share_of_{against}": round(held[0] / held[1], 2) if held[1] else None,
        "steps": steps,
    }
    if against == "ceiling":
        figures["ceiling_commit"] = ceiling_commit
    return figures


def print_ratio(figures):
    measured, against = figures["measured"], figures["against"]
    held, share = figures["players_held"], figures[f"share_of_{against}"]
    name = f"ceiling ({figures['ceiling_commit']} commit)" if against == "ceiling" else against
    print(
        f"{measured} / {name}: holds {held[0]} / {held[1]}"
        f" players = {'-' if share is None else f'{100 * share:.0f} %'} of the {against}'s"
    )
    for n, step in figures["steps"].items():
        (p50, c50), (p99, c99) = step["p50_ack_ms"], step["p99_ack_ms"]
        print(
            f"  {n:>5} players: ack p50 {p50} vs {c50} ms (x{step[f'p50_times_{against}']}),"
            f" p99 {p99} vs {c99} ms (x{step[f'p99_times_{against}']})"
        )


async def bench(args, log_dir):
    database_url = fresh_database(DATABASE)
    sites = [SITES[name](database_url, log_dir) for name in args.servers]
    results, stepping, stopped = [], {site.name for site in sites}, None
    began = time.monotonic()
    try:
        for players in args.steps:
            if time.monotonic() - began > args.budget_s:
                stopped = f"time budget ({args.budget_s:.0f} s) spent before {players} players"
                break
            for number in range(1, args.rounds + 1):
                for site in sites:
                    if site.name not in stepping:
                        continue
                    result = await run_round(site, players, args.seconds, args.warmup, database_url)
                    result["round"] = number
                    results.append(result)
                    print_round(number, result)
                    await asyncio.sleep(2)  # closed sockets settle before the next round
            for site in sites:
                rounds = [
                    r for r in results if r["server"] == site.name and r["players"] == players
                ]
                if rounds and not any(r["held"] for r in rounds):
                    stepping.discard(site.name)
            if not stepping:
                break
        for number in range(1, args.rounds + 1) if args.spectators else ():
            for site in sites:
                result = await run_round(
                    site,
                    args.watched_players,
                    args.seconds,
                    args.warmup,
                    database_url,
                    spectators=args.spectators,
                )
                result["round"] = number
                results.append(result)
                print_round(number, result)
                await asyncio.sleep(2)
    finally:
        for site in sites:
            site.stop()
    return results, stopped


def _plot_server(axis, server, value, rounds):
    """One server's rounds without spectators as dots, a line through each step's median."""
    rounds = [
        r for r in rounds if r["server"] == server and value(r) and not r["spectators_per_race"]
    ]
    steps = sorted({r["players"] for r in rounds})
    medians = [_median(value(r) for r in rounds if r["players"] == n) for n in steps]
    (line,) = axis.plot(steps, medians, "-", label=f"{server} (median of its rounds)")
    players = [r["players"] for r in rounds]
    axis.plot(players, [value(r) for r in rounds], "o", color=line.get_color(), alpha=0.6)


def chart(report):
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    panels = (
        ("ack p99, ms", lambda r: r["ack_ms"]["p99"]),
        ("moves/s", lambda r: r["moves_per_s"]),
        ("server CPU per move, ms", lambda r: r["cpu_ms_per_move"]),
    )
    figure, axes = plt.subplots(1, len(panels), figsize=(13, 4))
    for axis, (label, value) in zip(axes, panels, strict=True):
        for server in report["summary"]:
            _plot_server(axis, server, value, report["rounds"])
        axis.set_xlabel("players (one move a second each)")
        axis.set_title(label)
        axis.grid(alpha=0.3)
    axes[0].axhline(
        HELD_P99_MS, color="grey", linestyle="--", linewidth=1, label="held: p99 <= 100 ms"
    )
    axes[0].set_yscale("log")
    axes[0].legend(loc="upper left", fontsize="small")
    figure.suptitle(
        f"Open-loop load, 2 processes each, races of 4: every round a dot"
        f" (load average {report['load_average']['after']})"
    )
    figure.tight_layout()
    figure.savefig(CHART)


EXAMPLES = """\
the cases of issue #21 (each round on fresh sockets; project and ceiling alternate):
  the goal, 1,400 players, two rounds of 20 s each:
    .venv/bin/python bench/openloop.py --steps 1400 --rounds 2 --seconds 20
  every race split over both processes (a failover, a replica coming back), beside
  each race on one process, in alternating rounds:
    .venv/bin/python bench/openloop.py --servers project,split --steps 600,1000 --rounds 2
  where a process's CPU goes (py-spy in the venv), the project alone:
    .venv/bin/python bench/openloop.py --servers project --steps 1000 --seconds 20 \\
        --profile /tmp/spy
CPU per move (server CPU seconds / moves acknowledged) is the figure to compare on a
shared machine; latencies need a quiet one. BENCH_DATABASE_SUFFIX names the bench's
database apart from another engineer's on the same PostgreSQL.
"""


def print_summary(summary):
    """Per server: the most players held and in how many rounds there, then its rounds
    with spectators."""
    for server, figures_ in summary.items():
        held = figures_.get("players_held", 0)
        rounds = figures_.get("steps", {}).get(held, {}).get("rounds_held", "no")
        print(f"{server:>7}: holds {held} players ({rounds} rounds held there)")
        for watched in figures_.get("with_spectators", []):
            print(
                f"{server:>7}: {watched['players']} players with {watched['spectators_per_race']}"
                f" spectators a race: ack p99 {watched['ack_ms_p99']} ms"
                f"{'' if watched['held'] else ' -- NOT HELD'}"
            )


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--steps",
        type=lambda text: [int(n) - int(n) % RACE_SIZE for n in text.split(",")],
        default=[600, 1000, 1400, 1800],
        help="player counts (rounded down to whole races of 4)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="per step and server, alternating")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured per round")
    parser.add_argument("--warmup", type=float, default=2.0, help="not measured, per round")
    parser.add_argument("--budget-s", type=float, default=900.0, help="start no step after this")
    parser.add_argument(
        "--servers",
        type=lambda text: text.split(","),
        default=["project", "ceiling", "split"],
        help="which of project,ceiling,split to measure (split: the project, every race"
        " over both processes)",
    )
    parser.add_argument(
        "--placement",
        choices=("room", "split"),
        default=ProjectSite.placement,
        help="project: each race on one process (as the entrance routes) or split over both",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=50,
        help="per race, in the rounds with spectators (0: none)",
    )
    parser.add_argument(
        "--watched-players", type=int, default=48, help="players in the rounds with spectators"
    )
    parser.add_argument(
        "--ceiling-commit",
        choices=("group", "one"),
        default=CeilingSite.commit,
        help="the ceiling's commits: group commit as the project's, or one per statement",
    )
    parser.add_argument("--log-dir", help="keep the servers' logs here")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="py-spy (pip install py-spy) samples of every server process over every"
        " measured window, as collapsed stacks in DIR",
    )
    args = parser.parse_args()
    global PROFILE_DIR
    PROFILE_DIR = args.profile
    if PROFILE_DIR:
        Path(PROFILE_DIR).mkdir(parents=True, exist_ok=True)
    ProjectSite.placement = args.placement
    CeilingSite.commit = args.ceiling_commit
    problem = services_missing()
    if problem:
        print(f"open-loop bench skipped: {problem}")
        return
    if args.log_dir:
        Path(args.log_dir).mkdir(parents=True, exist_ok=True)
    load_before = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory() as scratch:
        results, stopped = asyncio.run(bench(args, args.log_dir or scratch))
    report = {
        "processes": 2,
        "race_size": RACE_SIZE,
        "moves_per_player_per_s": 1,
        "held_when": f"p99 ack <= {HELD_P99_MS} ms, no error, no lost move",
        "seconds_per_round": args.seconds,
        "stopped": stopped,
        "summary": summary(results),
        "ceiling_commit": args.ceiling_commit,
        "rounds": results,
        "load_average": {"before": load_before, "after": round(os.getloadavg()[0], 2)},
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    print_summary(report["summary"])
    report["ratio"] = ratio(report["summary"], args.ceiling_commit)
    report["split_ratio"] = ratio(report["summary"], args.ceiling_commit, "split", "project")
    for figures_ in (report["ratio"], report["split_ratio"]):
        if figures_:
            print_ratio(figures_)
    if stopped:
        print(f"stopped: {stopped}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    chart(report)
    print(f"wrote {RESULTS.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
