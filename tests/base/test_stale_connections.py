"""
Connections that died while their server was away, on a real daphne: a PostgreSQL
connection terminated under the process (as a restart does) is dropped and reopened
on the next request of any view, the 404 handler's included, and a Redis connection
killed under an idle replica does not make its next /healthz a false 503.

The shared services are never restarted: the test ends the server's own PostgreSQL
backends (`pg_terminate_backend`, the state a restart leaves a process in) and its
connections to a Redis of the test's own (`CLIENT KILL`).
"""

import urllib.error
import urllib.request

import pytest
import redis
from django.conf import settings
from django.db import connection

from game.engine.examples import RULE_BOOK_DEAL
from game.testing.live import Browser, collected_static, database_url, environment, running
from tests.support.faults import healthz

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]

OK = {"status": "ok", "database": "ok", "channel_layer": "ok"}
TRIES = 12
"""Requests in a row: more than the threads of daphne's executor (min(32, cores + 4)), so
every thread that kept a connection meets its dead one."""


def status(browser, url):
    """The status of a GET with the browser's cookies (its session's too: the jar keeps a
    Secure cookie from plain HTTP)."""
    request = urllib.request.Request(url, headers={"Cookie": browser.cookie_header()})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def terminate_backends():
    """End every connection to the test database but this process's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def production(**variables):
    """A server's environment as in production (DEBUG off: the 404 handler's page)."""
    return environment(
        database_url(settings.DATABASES["default"]),
        DEBUG="0",
        STATIC_ROOT=str(collected_static()),
        SECRET_KEY="stale-connection-tests-only-" + "s" * 40,
        HALFMOON_DAILY_SECRET="stale-connection-tests-only-daily-" + "d" * 32,
        SECURE_COOKIES="0",
        LOG_LEVEL="WARNING",
        **variables,
    )


@pytest.fixture
def server(tmp_path):
    with running(1, production(), tmp_path) as (daphne,):
        yield daphne


def test_a_404_after_postgresql_dropped_the_connections_is_a_404(server):
    browser = Browser()
    browser.get(f"{server.url}/play/{RULE_BOOK_DEAL}/")
    assert browser.cookie("sessionid")
    assert [status(browser, f"{server.url}/nowhere/") for _ in range(TRIES)] == [404] * TRIES
    assert terminate_backends() >= 1
    assert [status(browser, f"{server.url}/nowhere/") for _ in range(TRIES)] == [404] * TRIES
    assert status(browser, f"{server.url}/daily/1999-01-01/") == 404
    assert status(browser, f"{server.url}/rules/") == 200


def kill_clients(url):
    """Close every connection to the Redis at `url` but this one, as its restart does."""
    client = redis.Redis.from_url(url)
    mine = client.client_id()
    others = [c["id"] for c in client.client_list() if int(c["id"]) != mine]
    for other in others:
        client.client_kill_filter(_id=other)
    client.close()
    return len(others)


@pytest.mark.redis
def test_the_first_healthz_after_redis_dropped_the_connections_is_no_false_503(
    private_redis, tmp_path
):
    with running(1, production(REDIS_URL=private_redis.url), tmp_path) as (server,):
        assert healthz(server)[0] == 200  # the idle replica's connections are made
        assert kill_clients(private_redis.url) >= 1
        assert [healthz(server) for _ in range(3)] == [(200, OK)] * 3
