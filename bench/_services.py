"""
What the server benchmarks share: the PostgreSQL and Redis they use, a fresh
migrated database, real daphne processes, and percentiles.

Not a benchmark itself (`make bench` runs `bench/[!_]*.py`). Each benchmark
names its own database so that two of them, or two engineers, never drop each
other's.
"""

import asyncio
import os
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.testing.live import Browser, Player, start_servers  # noqa: E402, F401

ADMIN_URL = os.environ.get(
    "BENCH_DATABASE_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
SECRET_KEY = "bench-" + "x" * 50
DAILY_SECRET = "bench-daily-" + "x" * 40


def module_at(commit, path, name):
    """The module at `path` (in the repository) as it was at `commit`, loaded under
    `name` beside today's: a bench's "before" measured in the same run as its "after"."""
    source = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    module = types.ModuleType(name)
    exec(compile(source, f"{name}.py", "exec"), module.__dict__)
    return module


def production_settings():
    """The environment of a deployed process (DEBUG off: no query log, cached templates),
    for benches that time Django in this process; plain HTTP keeps the test client's
    cookies."""
    os.environ.update(
        DEBUG="0", SECRET_KEY=SECRET_KEY, HALFMOON_DAILY_SECRET=DAILY_SECRET, SECURE_COOKIES="0"
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "halfmoon_site.settings")


def database_url(name):
    """The URL of database `name`, suffixed with BENCH_DATABASE_SUFFIX when set: two
    engineers running the same bench on one machine never drop each other's database."""
    name += os.environ.get("BENCH_DATABASE_SUFFIX", "")
    return urlsplit(ADMIN_URL)._replace(path=f"/{name}").geturl()


def fresh_database(name):
    """Drop and create database `name`, migrate it, and return its URL."""
    import psycopg

    url = database_url(name)
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    return url


def bench_database(name):
    """A fresh database `name` as this process's DATABASE_URL, its URL returned; None,
    said on stdout, when PostgreSQL cannot give one (the bench is then skipped)."""
    try:
        url = fresh_database(name)
    except Exception as exc:  # noqa: BLE001 - a bench without PostgreSQL says so and stops
        print(f"SKIPPED: no PostgreSQL at {ADMIN_URL}: {exc}")
        return None
    os.environ["DATABASE_URL"] = url
    return url


def timed(function, runs=30):
    """`function` run `runs` times after a warm-up: its median and worst, in ms."""
    function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


def services_missing():
    """Why the server benchmarks cannot run here, or None."""
    import psycopg
    import redis

    try:
        psycopg.connect(ADMIN_URL, connect_timeout=2).close()
    except psycopg.Error as exc:
        return f"PostgreSQL not reachable at {ADMIN_URL}: {exc}"
    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return f"Redis not reachable at {REDIS_URL}: {exc}"
    return None


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else None


STORED_MOVES = """
SELECT entry_id, seq, NULL FROM game_move WHERE entry_id = ANY(%s)
UNION ALL SELECT id, NULL, packed_moves FROM game_entry
WHERE id = ANY(%s) AND packed_moves IS NOT NULL
"""


def stored_moves(conn, entries):
    """{(entry id, seq)} of every stored move and undo of `entries` (ids), on psycopg
    connection `conn`: a game in play's rows, a finished game's packed column."""
    from game.engine import packing

    found = set()
    for entry, seq, packed in conn.execute(STORED_MOVES, (list(entries), list(entries))):
        seqs = [seq] if packed is None else packing.seqs(packed)
        found.update((entry, n) for n in seqs)
    return found


async def seated_race(front, index, size=4, deal="HM1-N-AAAAAAB"):
    """A started race of `size` players through `front` (nginx or one daphne), as clients
    do it: each gets a player key from a page, the first creates the race, the others
    join, the first starts it; its Players, each with its `id` in the race."""
    browsers = [Browser() for _ in range(size)]
    for browser in browsers:
        await asyncio.to_thread(browser.get, f"{front.url}/")
    body = {"deal": deal, "name": f"r{index}p0"}
    room = (await asyncio.to_thread(browsers[0].post, f"{front.url}/api/races/", body))["room"]
    players = [Player(browser, front, room) for browser in browsers]
    for n, player in enumerate(players):
        if n:  # the race's page gives the player key a socket needs
            await asyncio.to_thread(player.browser.get, f"{front.url}/race/{room}/")
        await player.open()
        if n:
            await player.send("join", name=f"r{index}p{n}")
            await player.expect("state")
    await players[0].send("start")
    for player in players:
        await player.expect("started", timeout=30)
        player.id = (await player.expect("state", timeout=30))["you"]["player"]
    return players
