"""
A real daphne process losing PostgreSQL or Redis for a few seconds: it says so
quickly (a 503, a `server_error` frame, a 4503 close) instead of hanging, and
recovers by itself with no false alarm once the service is back.

The outages are private (tests/support/faults.py): PostgreSQL is reached through a
proxy the test cuts, and Redis is a server of the test's own, so the shared
services other tests use are never stopped. No test measures time: a client
timeout of a few seconds only tells "answered" from "hung" (psycopg_pool's
default wait alone was 30 s).
"""

import asyncio
import json
import time
import urllib.error

import pytest
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from game.engine.examples import RULE_BOOK_DEAL
from game.testing.live import Browser, Player, database_url, start_servers
from tests.support.faults import ANSWER_S, database_url_via, healthz, until_healthy

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]


def server_env(**env):
    return {"HALFMOON_DAILY_SOLVE_S": "0.05", "LOG_LEVEL": "WARNING", **env}


async def solo_player(server):
    browser = Browser()
    browser.get(f"{server.url}/play/{RULE_BOOK_DEAL}/")
    room = browser.post(f"{server.url}/api/races/", {"deal": RULE_BOOK_DEAL, "solo": True})["room"]
    player = Player(browser, server, room)
    await player.open()
    return player


async def test_a_database_outage_is_answered_in_seconds_and_recovered_from(
    database_proxy, redis_url, tmp_path
):
    env = server_env(DATABASE_URL=database_url_via(database_proxy.port), REDIS_URL=redis_url)
    (server,) = start_servers(1, env, tmp_path)
    try:
        player = await solo_player(server)
        database_proxy.cut()
        status, body = healthz(server)
        assert (status, body["database"]) == (503, "unavailable")
        await player.send("sync")
        assert (await player.expect("error", timeout=ANSWER_S))["code"] == "server_error"
        database_proxy.restore()
        until_healthy(server)
        assert [healthz(server)[0] for _ in range(5)] == [200] * 5  # no stale connection
        await player.send("sync")
        assert (await player.expect("state", timeout=ANSWER_S))["race"]["mode"] == "solo"
        await player.close()
    finally:
        server.stop()


def refusal(browser, url):
    """(status, body) of a request that must be refused."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        browser.get(url)
    return refused.value.code, refused.value.read().decode()


async def reopened(socket, within_s=30):
    """The socket's `state` once it opens again, as a client reconnects after a 4503 (with
    its backoff): the first try after an outage may still meet a connection the outage
    broke, which answers 4503 once more and is then replaced."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            return await socket.open()
        except ConnectionClosed:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def test_in_a_database_outage_pages_api_and_sockets_say_503_not_500(database_proxy, tmp_path):
    env = server_env(DATABASE_URL=database_url_via(database_proxy.port))
    (server,) = start_servers(1, env, tmp_path)
    try:
        player = await solo_player(server)
        await player.close()
        database_proxy.cut()
        status, page = refusal(player.browser, f"{server.url}/")
        assert status == 503 and "Something went wrong" in page
        status, body = refusal(player.browser, f"{server.url}/api/races/{player.room}/")
        assert (status, json.loads(body)["error"]["code"]) == (503, "server_error")
        socket = Player(player.browser, server, player.room)
        with pytest.raises(ConnectionClosed) as closed:
            await socket.open()  # accepted, then closed: no HTTP 500 to the handshake
        assert closed.value.rcvd.code == 4503
        database_proxy.restore()
        until_healthy(server)
        assert (await reopened(socket))["race"]["room"] == player.room
        await socket.close()
    finally:
        server.stop()


@pytest.mark.parametrize("layer", ["pubsub", "core"])
async def test_a_redis_outage_closes_new_sockets_with_4503_and_recovers(
    private_redis, layer, tmp_path
):
    env = server_env(
        DATABASE_URL=database_url(settings.DATABASES["default"]),
        REDIS_URL=private_redis.url,
        CHANNEL_LAYER=layer,
    )
    (server,) = start_servers(1, env, tmp_path)
    try:
        browser = Browser()
        browser.get(f"{server.url}/play/{RULE_BOOK_DEAL}/")
        body = {"deal": RULE_BOOK_DEAL, "solo": True}
        room = browser.post(f"{server.url}/api/races/", body)["room"]
        private_redis.stop()
        status, body = healthz(server)
        assert (status, body["database"], body["channel_layer"]) == (503, "ok", "unavailable")
        socket = await connect(
            f"ws://127.0.0.1:{server.port}/ws/race/{room}/",
            origin=server.url,
            additional_headers={"Cookie": browser.cookie_header()},
            open_timeout=ANSWER_S,
        )
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(ANSWER_S):
                while True:
                    await socket.recv()
        assert closed.value.rcvd.code == 4503
        private_redis.start()
        until_healthy(server)
        player = Player(browser, server, room)
        assert (await player.open())["race"]["room"] == room
        await player.close()
    finally:
        server.stop()
