"""
A real daphne process losing PostgreSQL or Redis for a few seconds: it says so
quickly (a 503, a `server_error` frame, a 4503 close) instead of hanging, and
recovers by itself with no false alarm once the service is back.

The outages are private (tests/server/faults.py): PostgreSQL is reached through a
proxy the test cuts, and Redis is a server of the test's own, so the shared
services other tests use are never stopped. No test measures time: a client
timeout of a few seconds only tells "answered" from "hung" (psycopg_pool's
default wait alone was 30 s).
"""

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest
from conftest import in_ci
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from game.engine.examples import RULE_BOOK_DEAL
from game.testing.live import Browser, Player, start_servers

from .faults import PrivateRedis, TcpProxy

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
ANSWERED_S = 8
"""Well above DATABASE_WAIT_S (2 s) and the layer's 2 s, well below the old 30 s hang."""


def database_url_via(port):
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@127.0.0.1:{port}/{db['NAME']}"


def server_env(**env):
    return {"HALFMOON_DAILY_SOLVE_S": "0.05", "LOG_LEVEL": "WARNING", **env}


def healthz(server):
    """(status, body) of /healthz, within ANSWERED_S or the test fails."""
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=ANSWERED_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def until_healthy(server, within_s=30):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if healthz(server)[0] == 200:
            return
        time.sleep(0.2)
    pytest.fail(f"/healthz not 200 within {within_s} s of the service coming back")


async def solo_player(server):
    browser = Browser()
    browser.get(f"{server.url}/play/{RULE_BOOK_DEAL}/")
    room = browser.post(f"{server.url}/api/races/", {"deal": RULE_BOOK_DEAL, "solo": True})["room"]
    player = Player(browser, server, room)
    await player.open()
    return player


@pytest.fixture
def database_proxy():
    db = settings.DATABASES["default"]
    proxy = TcpProxy(db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432))
    yield proxy
    proxy.cut()


@pytest.fixture
def private_redis():
    redis = PrivateRedis()
    if redis.binary is None:
        problem = "redis-server is not installed (apt-get install redis-server)"
        if in_ci():
            pytest.fail(problem)
        pytest.skip(problem)
    redis.start()
    yield redis
    redis.stop()


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
        assert (await player.expect("error", timeout=ANSWERED_S))["code"] == "server_error"
        database_proxy.restore()
        until_healthy(server)
        assert [healthz(server)[0] for _ in range(5)] == [200] * 5  # no stale connection
        await player.send("sync")
        assert (await player.expect("state", timeout=ANSWERED_S))["race"]["mode"] == "solo"
        await player.close()
    finally:
        server.stop()


@pytest.mark.parametrize("layer", ["pubsub", "core"])
async def test_a_redis_outage_closes_new_sockets_with_4503_and_recovers(
    private_redis, layer, tmp_path
):
    port = settings.DATABASES["default"].get("PORT") or 5432
    env = server_env(
        DATABASE_URL=database_url_via(port), REDIS_URL=private_redis.url, CHANNEL_LAYER=layer
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
            open_timeout=ANSWERED_S,
        )
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(ANSWERED_S):
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
