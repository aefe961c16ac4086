"""
A deploy nobody notices: a rolling restart behind the entrance while players move.

nginx (deploy/nginx.conf, rendered by game/testing/entrance.py) in front of two daphne
processes as compose runs them; two races of four play on. Replica 1 is stopped with
SIGTERM and started again, then, once the entrance sends sockets to it again, replica 2.
Each stopping process closes its race sockets with 1012 once their moves are committed
(game/realtime/shutdown.py); the players reconnect through nginx to the other replica,
find their exact boards and play on. Afterwards the database holds exactly the
acknowledged moves, nobody was counted out, nobody saw an opponent leave, and every
process exited cleanly by itself. The slowest reconnect is printed, not asserted.

A module of its own: its replicas are restarted, which the shared entrance of
tests/deploy/test_nginx.py must not be.
"""

import asyncio
import re
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async

from game.base.errors import CloseCode
from game.testing import live
from game.testing.entrance import entrance
from game.testing.live import Browser
from tests.realtime.test_rush import ONE_ADDRESS
from tests.support.faults import assert_stored_as_told, play_through
from tests.support.server import entrance_env, eventually, forget_counts, racers_on

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.nginx,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
RESUMED_S = 20
"""Every player has a move acknowledged within this of the second restart (a bound
for a hung client, not a timing: the reconnects themselves are printed)."""
CROWD = 60
"""Newcomers pressing the daily deal's Play at once, one page turn a replica: most of
them wait for their turn when a replica is stopped."""
SENT_ELSEWHERE = re.compile(r'"POST /daily/[^"]*" 307 ')


@pytest.fixture
def deploying(nginx_path, redis_url, tmp_path):
    """An entrance of the test's own: both of its replicas will be restarted."""
    forget_counts(redis_url)
    with entrance(nginx_path, entrance_env(redis_url), tmp_path) as front:
        yield front


@pytest.fixture
def crowded(nginx_path, redis_url, tmp_path):
    """An entrance whose replicas let one page at a time into Django."""
    forget_counts(redis_url)
    env = entrance_env(redis_url, HALFMOON_PAGES_AT_ONCE="1", **ONE_ADDRESS)
    with entrance(nginx_path, env, tmp_path) as front:
        yield front


def stopped_by_sigterm(replica):
    """SIGTERM, and the process's exit code and how long it took to exit (at most
    10 s, or the test fails)."""
    began = time.monotonic()
    code = replica.kill(signal.SIGTERM)
    return code, time.monotonic() - began


def abandoned(racers):
    from game.models import Entry

    ids = [racer.id for racer in racers]
    return list(Entry.objects.filter(pk__in=ids, status=Entry.ABANDONED).values_list("name"))


async def test_a_rolling_restart_loses_no_move_and_nobody_notices(deploying, capsys):
    rooms = await deploying.rooms_by_replica()
    racers = await racers_on([deploying], ["Ada", "Bob", "Cleo", "Dan"])
    racers += await racers_on([deploying], ["Eve", "Finn", "Gus", "Hal"])
    exits = []

    async def rolling_restart():
        for replica in deploying.replicas:
            exits.append(await asyncio.to_thread(stopped_by_sigterm, replica))
            await asyncio.to_thread(replica.start().wait_ready)
            await deploying.until_routed(replica, rooms[replica])

    await play_through(racers, rolling_restart, RESUMED_S)
    await assert_stored_as_told(racers)
    assert [code for code, _ in exits] == [0, 0]  # each exited by itself, cleanly
    assert all(racer.reconnects >= 1 for racer in racers)  # each race's replica restarted
    assert {code for racer in racers for code in racer.closes} == {CloseCode.RESTART}
    assert await database_sync_to_async(abandoned)(racers) == []
    assert [racer.left for racer in racers] == [[]] * len(racers)
    outages = [seconds for racer in racers for seconds in racer.outages]
    with capsys.disabled():
        print(
            f"\nrolling restart: {len(outages)} reconnects, slowest {max(outages):.2f} s,"
            f" median {sorted(outages)[len(outages) // 2]:.2f} s; replicas exited in"
            f" {', '.join(f'{seconds:.2f}' for _, seconds in exits)} s"
        )


def at_the_door(front):
    """A newcomer on the daily deal's page (its cookies set), about to press Play."""
    browser = Browser(timeout=30)
    browser.get(f"{front.url}/daily/")
    return browser


def served(replica, request):
    """Whether `replica` has answered `request` ("POST /daily/") at least once."""
    return f'"{request}" 302 ' in replica.log_path.read_text(errors="replace")


def pressing_play(front, browser):
    """Play: (status, final URL), as the browser ends up after every redirect."""
    return browser.submit(f"{front.url}/daily/", {"name": "Newcomer"})


async def test_a_replica_stopped_in_a_crowd_answers_every_page_it_had_taken(crowded):
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(CROWD) as threads:
        browsers = await asyncio.gather(
            *(loop.run_in_executor(threads, at_the_door, crowded) for _ in range(CROWD))
        )
        stopping = crowded.replicas[0]
        plays = [loop.run_in_executor(threads, pressing_play, crowded, b) for b in browsers]
        assert await asyncio.to_thread(eventually, lambda: served(stopping, "POST /daily/"))
        code, _ = await asyncio.to_thread(stopped_by_sigterm, stopping)
        answers = await asyncio.gather(*plays)
    assert code == 0  # exited by itself, within stopped_by_sigterm's bound
    assert {status for status, _ in answers} == {200}
    races = {url for _, url in answers}
    assert len(races) == CROWD and all("/race/" in url for url in races)
    sent_elsewhere = SENT_ELSEWHERE.findall(stopping.log_path.read_text(errors="replace"))
    assert sent_elsewhere, "no Play was waiting for a turn when the replica stopped"


WAITING_ON_A_LOCK = """
SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
"""
ORPHANS_ENDED = """
SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
"""
"""The exited server's sessions still waiting on the test's lock, ended (waiting up to 10 s
for each): PostgreSQL notices a vanished client only when it next writes to it, so, let
through by the lock, such a session would read on and meet the test's flush of every table
(a deadlock, seen once in a teardown)."""


async def test_a_replica_leaves_a_request_stuck_in_django_and_exits(redis_url, tmp_path):
    """A request still in Django after the drain (here: waiting on a table a test holds
    locked) would hold the interpreter's exit forever: the process exits without it."""
    import psycopg

    env = entrance_env(redis_url, HALFMOON_DRAIN_S="1")
    with live.running(1, env, tmp_path) as (server,), psycopg.connect(env["DATABASE_URL"]) as db:
        db.execute("LOCK TABLE game_dailydeal, django_session IN ACCESS EXCLUSIVE MODE")
        daily = f"{server.url}/daily/"  # the day's deal is read, a new visitor's session made
        visit = asyncio.ensure_future(asyncio.to_thread(Browser(timeout=60).get, daily))
        with psycopg.connect(env["DATABASE_URL"], autocommit=True) as watcher:
            blocked = lambda: watcher.execute(WAITING_ON_A_LOCK).fetchone()[0]  # noqa: E731
            assert await asyncio.to_thread(eventually, blocked)
        code, _ = await asyncio.to_thread(stopped_by_sigterm, server)
        with psycopg.connect(env["DATABASE_URL"], autocommit=True) as cleaner:
            cleaner.execute(ORPHANS_ENDED)
        db.rollback()
    assert code == 0
    assert "threads still running" in server.tail()
    with pytest.raises(OSError):  # the visitor's connection closed unanswered
        await visit
