"""
A websocket to a path no consumer serves, on a real daphne: closed 4400 with one line
of log, never an HTTP 500 with a traceback, and past the per-address limit refused at
the handshake without a line. And the attack's edge dates on the same daphne: 404s.
"""

import urllib.error
import urllib.request

import pytest
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from game.testing.live import database_url, environment, running
from tests.support.server import forget_counts

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]

PATHS = ["/ws/nope/", "/ws/event/-1/", "/ws/race/!!/", "/ws/race/ABCDEFGHJK/", "/ws/"]


async def close_code(server, path):
    """The close code the server sends a socket to `path`, or the HTTP status that
    refused its handshake."""
    try:
        async with connect(f"ws://127.0.0.1:{server.port}{path}", origin=server.url) as ws:
            await ws.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except InvalidStatus as refused:
        return refused.response.status_code


@pytest.fixture
def server(redis_url, tmp_path):
    forget_counts(redis_url)  # an earlier run's sockets from this address, still in their hour
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_UNKNOWN_SOCKET_ADDRESS_LIMIT=f"{len(PATHS)}/3600",
        LOG_LEVEL="INFO",
    )
    with running(1, env, tmp_path) as (daphne,):
        yield daphne
    forget_counts(redis_url)


async def test_a_socket_to_no_route_is_closed_4400_then_refused_past_the_limit(server):
    assert await close_code(server, "/ws/event/99999999999999999999/") == 4404  # no event
    assert [await close_code(server, path) for path in PATHS] == [4400] * len(PATHS)
    assert [await close_code(server, "/ws/nope/") for _ in range(20)] == [403] * 20
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log
    assert log.count("socket to no route") == len(PATHS)


def test_the_edge_dates_of_the_attack_are_404s_on_a_real_daphne(server):
    urls = [
        "/daily/week/1-W1/",
        "/daily/month/1-01/wins/",
        "/daily/month/99999999999999999999-1/wins/",
    ]
    for url in urls:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}{url}", timeout=10)
        assert refused.value.code == 404, url
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and "OverflowError" not in log
