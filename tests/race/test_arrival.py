"""
A socket's arrival against real daphne processes: when it changes nothing, its state is
read on the event loop (game/race/arrival.py), as is a `sync`'s, and is the snapshot the
careful way gives; when it changes something (a player announced gone comes back), it goes the
careful way and the race hears it. Which way each took is read from /metrics.
"""

import asyncio
import urllib.request

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from game.models import Race
from game.race import frames
from game.testing.live import Player, database_url, environment, running
from tests.support.server import WIN, running_race

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
MOVES = 6


@pytest.fixture
def servers(redis_url, tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_COUNTDOWN_S="0.3",
        HALFMOON_PRESENCE_TTL_S="2",
        HALFMOON_HEARTBEAT_S="0.5",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as servers:
        yield servers


def arrivals(server):
    """{way: arrivals so far} of the process's /metrics."""
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        sample.labels["way"]: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "halfmoon_state_reads_total"
    }


async def ways(server):
    found = await asyncio.to_thread(arrivals, server)
    return found.get("read", 0), found.get("careful", 0)


@database_sync_to_async
def careful_state(room, name):
    """The `state` the careful way builds (`frames.state` on ORM rows, the game replayed
    from the stored moves in this process, which holds none)."""
    race = Race.objects.select_related("deal").get(room=room)
    entry = race.entries.get(name=name)
    return frames.state(race, entry, entry.player_key, timezone.now())


async def test_a_second_tab_elsewhere_reads_the_exact_board_without_the_lock(servers):
    one, two = servers
    room, _bob_id, ada, bob = await running_race(one, two)
    for seq, move in enumerate(WIN[:MOVES], start=1):
        await ada.send("move", seq=seq, slots=move)
        await ada.expect("moved", seq=seq)
    before = await ways(two)
    tab = Player(ada.browser, two, room)  # server two never held Ada's game
    read = await tab.open()
    assert await ways(two) == (before[0] + 1, before[1])
    await tab.send("sync")
    assert {**await tab.expect("state"), "now": None} == {**read, "now": None}
    assert await ways(two) == (before[0] + 2, before[1])
    careful = await careful_state(room, "Ada")
    assert read["board"]["seq"] == MOVES and read["board"]["moves"] == MOVES
    assert {**read, "now": None} == {**careful, "now": None}
    await tab.send("move", seq=MOVES + 1, slots=WIN[MOVES])  # the tab plays on from there
    assert (await tab.expect("moved"))["seq"] == MOVES + 1
    for socket in (tab, ada, bob):
        await socket.close()


async def test_a_player_announced_gone_comes_back_the_careful_way_and_is_announced(servers):
    one, two = servers
    room, bob_id, ada, bob = await running_race(one, two)
    await bob.close()
    await ada.expect("player_left", player=bob_id)
    before = await ways(one)
    again = Player(bob.browser, one, room)
    state = await again.open()
    assert await ways(one) == (before[0], before[1] + 1)
    assert state["you"]["player"] == bob_id
    assert (await ada.expect("player_joined"))["player"]["id"] == bob_id
    for socket in (again, ada):
        await socket.close()


async def test_a_tab_opened_after_a_player_gave_up_reads_their_packed_game(servers):
    """Bob races on; Ada's game is over and packed (docs/storage.md), and a tab of hers
    on a process that never held it reads it the quick way, as the careful way has it."""
    one, two = servers
    room, _bob_id, ada, bob = await running_race(one, two)
    for seq, move in enumerate(WIN[:MOVES], start=1):
        await ada.send("move", seq=seq, slots=move)
        await ada.expect("moved", seq=seq)
    await ada.send("resign")
    while (await bob.expect("progress"))["kind"] != "resign":
        pass
    before = await ways(two)
    read = await Player(ada.browser, two, room).open()
    assert await ways(two) == (before[0] + 1, before[1])
    assert (read["board"]["moves"], read["board"]["status"]) == (MOVES, "resigned")
    careful = await careful_state(room, "Ada")
    assert {**read, "now": None} == {**careful, "now": None}
    for socket in (ada, bob):
        await socket.close()
