"""
A per-address limit is one limit for the whole site, not one per process: two
real daphne processes count a client address's requests together in Redis.
"""

import urllib.error

import pytest
from django.conf import settings

from game.testing.live import Browser, database_url, environment, running
from tests.support.server import forget_counts

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
LIMIT = 3


@pytest.fixture
def servers(redis_url, tmp_path):
    forget_counts(redis_url)  # an earlier run's requests from this address, still in their hour
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_CREATE_ADDRESS_LIMIT=f"{LIMIT}/3600",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as servers:
        yield servers


def create_race(server):
    """A fresh cookie (a new player each time) asks `server` for a race: the status."""
    browser = Browser()
    browser.get(f"{server.url}/")
    try:
        browser.post(f"{server.url}/api/races/", {"deal": "random"})
    except urllib.error.HTTPError as refused:
        return refused.code
    return 201


def test_a_per_address_limit_holds_across_two_processes_together(servers):
    one, two = servers
    statuses = [create_race(servers[turn % 2]) for turn in range(2 * LIMIT)]
    assert statuses == [201] * LIMIT + [429] * LIMIT  # the limit, not twice it
    assert {create_race(one), create_race(two)} == {429}
