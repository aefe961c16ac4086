"""
The players of the server benchmarks that move once a second (bench/openloop.py's load,
bench/rush.py's base load): races of 4 seated on the project's daphne processes, each
player sending the rule book's winning line one move a second without waiting for the
answer (open loop), every ack timed and later checked against the stored moves, and the
CPU of the processes meanwhile.

Not a benchmark itself (`make bench` runs `bench/[!_]*.py`): one place for what
both benches need, so the base load of the rush is the open-loop bench's own.
"""

import asyncio
import collections
import contextlib
import gc
import json
import math
import random
import subprocess
import sys
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
    SECRET_KEY,
    Browser,
    Player,
    start_servers,
)
from _services import database_url as named_database_url
from _services import stored_moves as stored_moves_of
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN

RACE_SIZE = 4
LINE = [list(move) for move in RULE_BOOK_WIN]
HELD_P99_MS = 100
SEATING = 16
"""Races seated at once: setting up is not what is measured, but must not take minutes."""


@dataclass
class Seat:
    ws: object
    player: int


def server_environment(database_url):
    """The settings of the benches' daphne processes (DEBUG off, as deployed), with the
    per-address limits lifted: every simulated player comes from 127.0.0.1."""
    return {
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
        "HALFMOON_SOCKETS_PER_ADDRESS": "100000",
        "HALFMOON_CREATE_ADDRESS_LIMIT": "100000/60",
        "HALFMOON_ADDRESS_FRAME_RATE": "100000",
        "HALFMOON_ADDRESS_FRAME_BURST": "100000",
        "LOG_LEVEL": "WARNING",
    }


class ProjectSite:
    """Two daphne processes of this repository. `placement` "room" puts each race on one
    process, as the entrance does (deploy/nginx.conf routes by room); "split" spreads
    every race over both, the worst case, where each broadcast crosses Redis."""

    name, move_table = "project", "game_move"
    placement = "room"

    def __init__(self, database_url, log_dir):
        env = server_environment(database_url)
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


@dataclass
class Stats:
    """Everything one round measured, from the client's side."""

    window: tuple
    sent: dict = field(default_factory=dict)  # (player, seq) -> perf_counter at send
    acks: list = field(default_factory=list)
    ack_times: list = field(default_factory=list)  # (sent, ack) of each measured move
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
                        stats.ack_times.append((sent, now - sent))
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


def profile(pids, label, seconds, directory):
    """py-spy recording each process of `pids` for `seconds` (without pausing it:
    --nonblocking), as collapsed stacks in `directory`; [] when `directory` is None."""
    if directory is None:
        return []
    spy = Path(sys.executable).with_name("py-spy")
    started = []
    for n, pid in enumerate(pids):
        out = Path(directory) / f"{label}-{int(time.time())}-{n}.txt"
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


def database_cpu_seconds(database):
    """{pid: CPU seconds so far} of the PostgreSQL backends connected to `database` (the
    bench's, by name): its servers' share of PostgreSQL, not the other engineers' on a
    shared machine (PostgreSQL's own background writers, shared by all, are left out).
    The servers' pools keep their connections through a round; one opened during it
    counts from zero (`database_cpu_spent`)."""
    import psycopg

    name = urlsplit(named_database_url(database)).path.lstrip("/")
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


def database_cpu_spent(before, database):
    """CPU seconds the backends of `database` spent since `before` (database_cpu_seconds)."""
    after = database_cpu_seconds(database)
    return sum(spent - before.get(pid, 0.0) for pid, spent in after.items())


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
