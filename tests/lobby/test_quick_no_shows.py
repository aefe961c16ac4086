"""
A quick-race seat is kept only by a player who comes: sessions that poll the
queue and never connect used to fill every race and leave each real player
racing alone. A race too few came to is called off, those who came go back to
the front of the line, and a no-show is kept out of it for a while.
"""

import pytest
from channels.db import database_sync_to_async

from game.lobby import quick
from game.models import Race
from tests.support.server import Socket, close_all, session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("todays_deal")]
poll = database_sync_to_async(quick.poll)


@pytest.fixture(autouse=True)
def quick_clock(settings):
    """Eight waiting make a race at once; fewer wait (for these tests, long)."""
    settings.HALFMOON_QUICK_WAIT_S = settings.HALFMOON_QUICK_WAIT_PAIR_S = 60


def no_show_keys(count):
    return [f"noshow{n}".ljust(32, "x") for n in range(count)]


async def queue(no_shows, *players):
    """The no-shows, then each (session key, player key) of `players`, poll; the last
    poll seats them all: the room."""
    for key in no_shows:
        assert "waiting" in await poll(key, "Nobody")
    answers = [await poll(key, "Real") for _, key in players]
    return answers[-1]["room"]


async def racers(race_room):
    race = await database_sync_to_async(Race.objects.get)(room=race_room)
    return await database_sync_to_async(lambda: list(race.entries.values_list("name", flat=True)))()


async def test_no_shows_cannot_make_a_real_player_race_alone():
    ada, bob = await session("Ada"), await session("Bob")
    no_shows = no_show_keys(7)
    room = await queue(no_shows, ada)
    socket = Socket(room, ada[0])
    state = await socket.open()
    called_off = await socket.expect("requeued", timeout=5)
    assert called_off["players"] == [state["you"]["player"]]
    await close_all(socket)
    for key in no_shows:  # kept out: never seated again for now
        assert await poll(key, "Nobody") == {"waiting": 0}
    assert await poll(ada[1], "Ada") == {"waiting": 1}  # at the front of the line
    placed = await poll(bob[1], "Bob")  # Ada has waited long enough: a pair at once
    assert placed == {"room": placed["room"]} and placed["room"] != room
    sockets = [Socket(placed["room"], key) for key, _ in (ada, bob)]
    for socket in sockets:
        await socket.open()
    for socket in sockets:
        await socket.expect("started", timeout=5)
        assert len((await socket.expect("state"))["players"]) == 2
    await close_all(*sockets)


async def test_a_quick_race_starts_with_those_who_came_and_no_shows_stay_out():
    ada, bob = await session("Ada"), await session("Bob")
    no_shows = no_show_keys(6)
    room = await queue(no_shows, ada, bob)
    sockets = [Socket(room, key) for key, _ in (ada, bob)]
    for socket in sockets:
        await socket.open()
    for socket in sockets:
        assert (await socket.expect("started", timeout=5))["type"] == "started"
    assert sorted(await racers(room)) == ["Real", "Real"]
    for key in no_shows:
        assert await poll(key, "Nobody") == {"waiting": 0}
    assert await poll(ada[1], "Ada") == {"room": room}  # still in her race
    await close_all(*sockets)
