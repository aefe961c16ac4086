"""
The channel layer sharded over two Redis servers (CHANNEL_LAYER_URLS): channels-redis
hashes each group's name to one of them, so two races may meet on different Redis.
Two real daphne processes, a race on each Redis, each race's frames crossing from one
process to the other through its own Redis (docs/scaling.md).
"""

import pytest
from channels_redis.utils import _consistent_hash
from django.conf import settings

from game.base import stores
from game.realtime.fanout import group_name
from game.testing.live import database_url, environment, running
from tests.support.server import WIN, close_all, lobby

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def shards(redis_url, private_redis):
    return [redis_url, private_redis.url]


@pytest.fixture
def servers(shards, redis_url, tmp_path):
    """Two daphne processes whose channel layer spans both Redis servers."""
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        CHANNEL_LAYER="pubsub",
        CHANNEL_LAYER_URLS=",".join(shards),
        HALFMOON_COUNTDOWN_S="0.3",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as servers:
        yield servers


def group_channel(servers, room):
    """The Redis pub/sub channel of the race's group (channels-redis's pubsub layer)."""
    prefix = servers[0].env.get("CHANNEL_LAYER_PREFIX", "asgi")
    return f"{prefix}__group__{group_name(room)}"


def subscribed(url, channel):
    return channel.encode() in stores.redis_client(url).pubsub_channels(channel)


async def races_on_each_shard(servers, shards):
    """One race in its lobby (Ada on process one, Bob on two) per Redis its group hashes
    to: {shard index: (room, [Ada, Bob])}; other races made on the way are closed."""
    found = {}
    for _ in range(30):
        room, players, _ = await lobby(servers, ["Ada", "Bob"])
        shard = _consistent_hash(group_channel(servers, room), len(shards))
        if shard in found:
            await close_all(*players)
            continue
        found[shard] = room, players
        if len(found) == len(shards):
            return found
    raise AssertionError(f"30 races' groups all hashed to the Redis of {list(found)}")


async def test_each_races_frames_cross_processes_through_the_redis_its_group_hashes_to(
    servers, shards
):
    races = await races_on_each_shard(servers, shards)
    for shard, (room, (ada, bob)) in races.items():
        channel = group_channel(servers, room)
        assert subscribed(shards[shard], channel)
        assert not subscribed(shards[1 - shard], channel)
        await ada.send("start")
        for socket in (ada, bob):
            await socket.expect("started")
        for seq, move in enumerate(WIN[:5], start=1):
            await ada.send("move", seq=seq, slots=move)
            assert (await ada.expect("moved"))["seq"] == seq
            assert (await bob.expect("progress"))["slots"] == move
        await close_all(ada, bob)
