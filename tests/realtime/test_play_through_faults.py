"""
Players keep moving through a fault on real daphne processes, and afterwards the
database holds exactly what they were told: every acknowledged move stored, once,
in `seq` order, nothing stored that was not acknowledged, each entry at its last
acknowledged `seq`, score and move count — and play went on within seconds of the
fault's end, opponents' moves reaching them again.

The faults: one of two processes killed with SIGKILL mid-race (its players come
back on the other to their exact board); Redis restarted (the test's own, empty
again, as after a crash); PostgreSQL unreachable for 10 s (the test's own proxy
to it cut). Players race on both processes, each with one move in flight at a
time, sending a move refused for now or cut off by the fault again with the same
`seq` (tests/support/faults.py). The shared PostgreSQL and Redis are never stopped.
"""

import asyncio
import signal
import time

import pytest
from django.conf import settings

from game.testing.live import database_url, environment, running
from tests.support.faults import (
    ANSWER_S,
    assert_stored_as_told,
    database_url_via,
    moving,
    play_through,
    until_healthy,
)
from tests.support.server import racers_on

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
NAMES = ["Ada", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
RESUMED_S = 5
"""Every player has a move acknowledged within this of the fault's end."""
REDIS_DOWN_S = 2
DATABASE_DOWN_S = 10


def server_env(database, redis):
    return environment(
        database,
        redis,
        HALFMOON_COUNTDOWN_S="0.3",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )


def database_outage(proxy, instants):
    """The fault: PostgreSQL unreachable through `proxy` for DATABASE_DOWN_S; its
    beginning and end (monotonic) go into `instants` as "from" and "to"."""

    async def cut():
        proxy.cut()
        instants["from"] = time.monotonic()
        await asyncio.sleep(DATABASE_DOWN_S)
        instants["to"] = time.monotonic()
        proxy.restore()

    return cut


def refused_once_back(racers, ended):
    """Per racer, the refusals of moves sent after its first acknowledged move since
    `ended`: false alarms from something the fault left broken."""
    back = [racer.acked_since(ended)[0]["at"] for racer in racers]
    return [racer.refused_since(at) for racer, at in zip(racers, back, strict=True)]


async def test_players_play_on_through_a_killed_process(redis_url, tmp_path):
    env = server_env(database_url(settings.DATABASES["default"]), redis_url)
    with running(2, env, tmp_path) as servers:
        racers = await racers_on(servers, NAMES[:4])

        async def crash():
            await asyncio.to_thread(servers[1].kill, signal.SIGKILL)

        ended = await play_through(racers, crash, RESUMED_S)
        await assert_stored_as_told(racers)
    assert [racer.reconnects for racer in racers] == [0, 1, 0, 1]  # the killed process's
    assert refused_once_back(racers, ended) == [[]] * 4


async def test_players_play_on_through_a_redis_restart(private_redis, tmp_path):
    env = server_env(database_url(settings.DATABASES["default"]), private_redis.url)
    with running(2, env, tmp_path) as servers:
        racers = await racers_on(servers, NAMES[:4])

        async def restart():
            await asyncio.to_thread(private_redis.stop)
            await asyncio.sleep(REDIS_DOWN_S)
            await asyncio.to_thread(private_redis.start)

        ended = await play_through(racers, restart, RESUMED_S)
        await assert_stored_as_told(racers)
    assert refused_once_back(racers, ended) == [[]] * 4


async def test_players_play_on_through_a_database_outage(database_proxy, redis_url, tmp_path):
    env = server_env(database_url_via(database_proxy.port), redis_url)
    outage = {}
    with running(2, env, tmp_path) as servers:
        racers = await racers_on(servers, NAMES[:4])
        await play_through(racers, database_outage(database_proxy, outage), RESUMED_S)
        await assert_stored_as_told(racers)
    # Every player's moves sent while the database was away were refused (server_error
    # or busy, each within ANSWER_S: none hung), and none was acknowledged.
    start, end = outage["from"], outage["to"]
    within = [[sent for sent, at, _ in r.refusals if start < sent and at < end] for r in racers]
    assert all(within)
    assert [m for r in racers for m in r.acked if start < m["sent"] and m["at"] < end] == []


async def test_a_full_race_s_moves_in_a_database_outage_are_each_answered_in_seconds(
    database_proxy, redis_url, tmp_path
):
    env = server_env(database_url_via(database_proxy.port), redis_url)
    with running(1, env, tmp_path) as servers:
        racers = await racers_on(servers, NAMES)
        await play_through(racers, database_outage(database_proxy, {}), RESUMED_S)
        await assert_stored_as_told(racers)  # "no answer in 8 s"


async def test_no_move_is_refused_once_the_server_is_healthy_after_a_database_blip(
    database_proxy, redis_url, tmp_path
):
    env = server_env(database_url_via(database_proxy.port), redis_url)
    with running(1, env, tmp_path) as (server,):
        racers = await racers_on([server], NAMES[:4])
        async with moving(racers) as wait:
            await wait(lambda: all(r.acked for r in racers), ANSWER_S, lambda: "no first moves")
        database_proxy.cut()  # while nobody moves: every pooled connection breaks unseen
        await asyncio.sleep(1)
        database_proxy.restore()
        await asyncio.to_thread(until_healthy, server)
        healthy = time.monotonic()
        async with moving(racers) as wait:
            await wait(
                lambda: all(r.playing_since(healthy) for r in racers),
                ANSWER_S,
                lambda: "not every player made a few moves",
            )
        await assert_stored_as_told(racers)
    assert [racer.refused_since(healthy) for racer in racers] == [[]] * 4
