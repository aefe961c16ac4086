"""
The protocol's edges on a real daphne: a frame over the size daphne takes is
closed with 1009 and invalid UTF-8 with 1007, as docs/protocol.md says (they
used to get a TCP reset), and a socket's first frame is always its `state`,
even when its process replays a race's kept frames to it (game/realtime/fanout.py).
"""

import contextlib

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from game.testing.live import Browser, Player, database_url, environment, running
from tests.support.server import lobby

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
MIB = 2**20


@pytest.fixture
def env(redis_url):
    return environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )


async def solo_player(server):
    """A socket on a solo game of a fresh browser session, its `state` received."""
    browser = Browser()
    browser.get(f"{server.url}/")
    room = browser.post(f"{server.url}/api/races/", {"deal": "random", "solo": True})["room"]
    player = Player(browser, server, room)
    await player.open()
    return player


async def close_code(player, message):
    """Send `message` (str, or bytes sent as a text frame) and read until the server
    closes: its close code, or None when the connection was dropped without one."""
    with contextlib.suppress(ConnectionClosed):
        await player.ws.send(message, text=True)
    try:
        while True:
            await player.ws.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def test_a_frame_over_a_mebibyte_is_closed_1009_and_invalid_utf8_1007(env, tmp_path):
    with running(1, env, tmp_path) as (server,):
        assert await close_code(await solo_player(server), "x" * (MIB + 1)) == 1009
        assert await close_code(await solo_player(server), b'{"type": "\xff"}') == 1007


async def test_a_lower_max_message_size_closes_just_past_it_with_1009(env, tmp_path):
    options = ["--websocket-max-message-size", "65536"]
    with running(1, env, tmp_path, options) as (server,):
        player = await solo_player(server)
        await player.send("sync", pad="x" * (65536 - 30))  # at the limit: only too large for us
        assert (await player.expect("error"))["code"] == "too_large"
        assert await close_code(player, "x" * 65537) == 1009


async def test_the_first_socket_of_a_race_on_a_process_gets_its_state_first(env, tmp_path):
    """Ada's process kept her race's frames to itself; when Bob's socket brings the
    race to the other process, they are sent there again, which used to reach Bob
    before his `state`."""
    with running(2, env, tmp_path) as (one, two):
        for _ in range(5):
            room, (ada,), _ = await lobby([one], ["Ada"])
            browser = Browser()
            browser.get(f"{two.url}/race/{room}/")
            bob = Player(browser, two, room)
            await bob.open()
            assert bob.seen[0]["type"] == "state", [frame["type"] for frame in bob.seen]
            await ada.close()
            await bob.close()
