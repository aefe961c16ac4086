"""
The Redis side of the shared stores, against a real Redis: a heartbeat's renewals
(`set_scores`) and reads of every race's marks (`presence`) are one script each, and
must leave and read exactly what a ZADD and EXPIRE a set, a ZRANGE a room, did.
"""

import time

import pytest

from game.base import presence
from game.base.stores import redis_client, set_scores

pytestmark = pytest.mark.redis


@pytest.fixture
def client(redis_url):
    client = redis_client(redis_url)
    client.flushdb()
    yield client
    client.flushdb()


def test_scores_are_set_in_every_set_each_kept_for_its_time(client):
    set_scores(client, [("a", "x", 1.5), ("b", "y", 2.25), ("a", "z", 3.0)], keep_s=60)
    assert client.zrange("a", 0, -1, withscores=True) == [(b"x", 1.5), (b"z", 3.0)]
    assert client.zrange("b", 0, -1, withscores=True) == [(b"y", 2.25)]
    assert 55 <= client.ttl("a") <= 60 and 55 <= client.ttl("b") <= 60


def test_existing_only_renews_members_and_adds_none(client):
    set_scores(client, [("leases", "open", 1.0)], keep_s=60)
    set_scores(client, [("leases", "open", 9.0), ("leases", "closed", 9.0)], 30, True)
    assert client.zrange("leases", 0, -1, withscores=True) == [(b"open", 9.0)]
    assert client.ttl("leases") <= 30  # kept for the new time


def test_no_scores_touch_nothing(client):
    set_scores(client, [], keep_s=60)
    assert client.dbsize() == 0


@pytest.fixture
def marks_in_redis(client, redis_url, settings):
    settings.REDIS_URL = redis_url
    presence._store.clear()
    yield
    presence._store.clear()


@pytest.mark.usefixtures("marks_in_redis")
def test_marks_read_back_per_room_the_latest_of_each_players_sockets(settings):
    settings.HALFMOON_PRESENCE_TTL_S = 30
    assert isinstance(presence._store(), presence.RedisMarks)
    presence.refresh([("r1", 7, "s1"), ("r1", 8, "s2"), ("r2", 9, "s3")])
    presence.end("r1", 7, "s4")  # a second socket of player 7, closed: the first counts
    now = time.time()
    first, second, empty = presence.present_until(["r1", "r2", "nobody-here"])
    assert set(first) == {7, 8} and set(second) == {9} and empty == {}
    assert all(now + 25 < until <= now + 30 for until in (*first.values(), *second.values()))
    presence.end("r1", 8, "s2")
    [after] = presence.present_until(["r1"])
    assert after[8] <= time.time() and after[7] == first[7]
    assert presence.present_until([]) == []
