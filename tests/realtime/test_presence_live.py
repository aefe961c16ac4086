"""
Presence against real daphne processes: whatever ends a socket — a crash, a
deploy, a flood, a player who walks away — the race hears it and still ends.

The in-process communicator hides exactly these cases (daphne runs no
`disconnect()` on SIGTERM or kill -9, and refuses some close codes), so every
test here runs two real servers on PostgreSQL and Redis, with presence timings
shortened: a mark lives 2 s, is refreshed every 0.5 s, and a player is counted
out after 2 s away.
"""

import asyncio
import json
import signal

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from game.models import Entry, Race
from game.testing.live import Browser, Player, database_url, environment, running
from tests.support.server import WIN, lobby_on_two_servers, polled, running_race

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
PRESENCE = {
    "HALFMOON_PRESENCE_TTL_S": "2",
    "HALFMOON_HEARTBEAT_S": "0.5",
    "HALFMOON_ABANDON_S": "2",
}


def server_env(redis_url, **extra):
    fast = {
        "HALFMOON_COUNTDOWN_S": "0.3",
        "HALFMOON_FRAME_BURST": "200",
        "HALFMOON_DAILY_SOLVE_S": "0.05",
        "LOG_LEVEL": "WARNING",
    }
    return environment(
        database_url(settings.DATABASES["default"]), redis_url, **{**fast, **PRESENCE, **extra}
    )


@pytest.fixture
def servers(redis_url, tmp_path):
    with running(2, server_env(redis_url), tmp_path) as servers:
        yield servers


async def ada_wins(ada):
    for seq, move in enumerate(WIN, start=1):
        await ada.send("move", seq=seq, slots=move)
        await ada.expect("moved")


def statuses(room):
    return dict(Entry.objects.filter(race__room=room).values_list("name", "status"))


async def test_a_killed_process_s_players_are_gone_counted_out_and_the_race_ends(servers):
    one, two = servers
    room, bob_id, ada, _bob = await running_race(one, two)
    two.kill(signal.SIGKILL)
    left = await ada.expect("player_left", player=bob_id, timeout=20)
    assert left["connected"] is False
    counted_out = await ada.expect("progress", player=bob_id, timeout=20)
    assert counted_out["status"] == "abandoned"
    await ada_wins(ada)
    finished = await ada.expect("finished", timeout=10)
    assert [(s["name"], s["status"]) for s in finished["standings"]] == [
        ("Ada", "won"),
        ("Bob", "abandoned"),
    ]
    await ada.close()


async def test_a_player_who_leaves_mid_race_no_longer_holds_it(servers):
    one, two = servers
    room, bob_id, ada, bob = await running_race(one, two)
    await bob.close()
    assert (await ada.expect("player_left", player=bob_id, timeout=5))["connected"] is False
    await ada_wins(ada)
    finished = await ada.expect("finished", timeout=15)
    assert {s["name"]: s["status"] for s in finished["standings"]} == {
        "Ada": "won",
        "Bob": "abandoned",
    }
    race = await database_sync_to_async(Race.objects.get)(room=room)
    assert race.status == Race.FINISHED


async def test_a_player_who_reloads_within_the_grace_period_plays_on(servers):
    one, two = servers
    room, bob_id, ada, bob = await running_race(one, two)
    await bob.close()
    bob = Player(bob.browser, one, room)  # the reloaded page may reach the other process
    await bob.open()
    await asyncio.sleep(4)  # twice the grace period
    await bob.send("move", seq=1, slots=WIN[0])
    assert (await bob.expect("moved"))["status"] == "playing"
    assert (await database_sync_to_async(statuses)(room))["Bob"] == "playing"
    await ada.close()
    await bob.close()


async def test_after_both_processes_restart_no_player_stays_connected(servers):
    one, two = servers
    room, _, ada, bob = await running_race(one, two)
    one.restart(signal.SIGTERM)
    two.restart(signal.SIGTERM)
    watcher = Browser()
    watcher.get(f"{one.url}/")

    async def race():
        status, body = watcher.get(f"{two.url}/api/races/{room}/")
        return status, json.loads(body)["players"]

    # Within the marks' lifetime and then some (they may be gone already).
    status, players = await polled(race, lambda got: not any(p["connected"] for p in got[1]), 3)
    assert status == 200
    assert [(p["name"], p["connected"]) for p in players] == [("Ada", False), ("Bob", False)]


async def test_a_host_gone_from_the_lobby_hands_the_race_to_the_next_player(servers):
    one, two = servers
    room, bob_id, ada, bob = await lobby_on_two_servers(one, two)
    await ada.close()
    handed = await bob.expect("host", timeout=15)
    assert handed["player"] == bob_id
    await bob.send("start")
    await bob.expect("started")


async def test_a_flood_closed_on_real_daphne_still_tells_the_race_at_once(redis_url, tmp_path):
    env = server_env(redis_url, HALFMOON_FRAME_BURST="20", HALFMOON_PRESENCE_TTL_S="60")
    with running(2, env, tmp_path) as (one, two):
        room, bob_id, ada, bob = await running_race(one, two)
        for _ in range(60):
            try:
                await bob.send("ping")
            except ConnectionClosed:
                break
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await bob.ws.recv()
        assert closed.value.rcvd.code == 4008
        # Well before the 60 s a mark lives: the close ran its bookkeeping.
        assert (await ada.expect("player_left", player=bob_id, timeout=5))["connected"] is False
        await ada.close()
