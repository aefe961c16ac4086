"""
Sockets per session are counted across processes by leases that the socket's
process renews: an open socket keeps its place however long it stays, and a
process that crashes gives its sockets' places back within the presence TTL.
"""

import asyncio
import json
import signal

import pytest
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from game.testing.live import Browser, database_url, environment, running
from tests.support.server import polled

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
TTL_S = 2.0


@pytest.fixture
def servers(redis_url, tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_SOCKETS_PER_SESSION="2",
        HALFMOON_PRESENCE_TTL_S=str(TTL_S),
        HALFMOON_HEARTBEAT_S="0.4",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as servers:
        yield servers


async def open_socket(browser, server, room):
    """A socket of `browser`'s session: (the socket, its first frame's type)."""
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws/race/{room}/",
        origin=server.url,
        additional_headers={"Cookie": browser.cookie_header()},
        open_timeout=10,
    )
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return ws, first.get("code", first["type"])


async def refused(browser, server, room):
    ws, first = await open_socket(browser, server, room)
    try:
        await asyncio.wait_for(ws.recv(), 5)
    except ConnectionClosed:
        return first == "too_many_sockets" and ws.close_code == 4429
    finally:
        await ws.close()
    return False


def race_of(browser, server):
    browser.get(f"{server.url}/")
    return browser.post(f"{server.url}/api/races/", {"deal": "random"})["room"]


async def test_open_sockets_keep_their_places_longer_than_a_lease(servers):
    one, two = servers
    browser = Browser()
    room = race_of(browser, one)
    held = [(await open_socket(browser, one, room))[0] for _ in range(2)]
    await asyncio.sleep(2 * TTL_S)
    assert await refused(browser, two, room)
    for ws in held:
        await ws.close()


async def test_a_crashed_process_gives_its_sockets_places_back(servers):
    one, two = servers
    browser = Browser()
    room = race_of(browser, two)
    for _ in range(2):
        await open_socket(browser, one, room)
    one.kill(signal.SIGKILL)
    assert await refused(browser, two, room)

    async def seated():
        ws, first = await open_socket(browser, two, room)
        if first != "state":
            await ws.close()
        return ws, first

    # Within a lease's lifetime and then some (once the dead process's leases ran out).
    ws, first = await polled(seated, lambda got: got[1] == "state", TTL_S + 0.5)
    assert first == "state"
    await ws.close()
