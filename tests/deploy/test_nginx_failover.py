"""
A replica killed behind the entrance: nginx (deploy/nginx.conf, rendered by
game/testing/entrance.py) in front of two daphne processes as compose runs them,
and the replica holding a race killed with SIGKILL mid-race (daphne runs no
disconnect()). Its players reconnect through nginx, whose consistent hash moves
the room to the other replica, find their exact boards and play on; every
acknowledged move is in the database (tests/support/faults.py).

A module of its own: the entrance of tests/deploy/test_nginx.py is shared by its
tests, and its replicas must not be writing while this test's data is emptied.
"""

import asyncio
import signal

import pytest

from game.testing.entrance import entrance
from tests.support.faults import assert_stored_as_told, play_through
from tests.support.server import entrance_env, eventually, forget_counts, racers_on

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.nginx,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
RESUMED_S = 5
"""Every player has a move acknowledged within this of the kill."""


@pytest.fixture
def doomed(nginx_path, redis_url, tmp_path):
    """An entrance of the test's own: one of its replicas will be killed."""
    forget_counts(redis_url)
    with entrance(nginx_path, entrance_env(redis_url), tmp_path) as front:
        yield front


async def test_a_replica_killed_mid_race_its_players_carry_on_through_the_entrance(doomed):
    racers = await racers_on([doomed], ["Ada", "Bob", "Cleo", "Dan"])
    connected = f"WSCONNECT /ws/race/{racers[0].player.room}/"
    (home,) = await asyncio.to_thread(eventually, lambda: doomed.replicas_that_logged(connected))
    (other,) = [replica for replica in doomed.replicas if replica is not home]

    async def crash():
        await asyncio.to_thread(home.kill, signal.SIGKILL)

    await play_through(racers, crash, RESUMED_S)
    await assert_stored_as_told(racers)
    assert [racer.reconnects for racer in racers] == [1] * 4
    assert len(other.requests(connected)) == 4  # all back, on the other replica
