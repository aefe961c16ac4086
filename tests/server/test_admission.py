"""No client can make others wait: budgets across sockets, bounded queues, idle sockets."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from game.models import Race

from .conftest import WIN, Socket, close_all, rule_book_race, session

pytestmark = pytest.mark.django_db(transaction=True)


async def solo_tabs(count, name="Ada"):
    """A solo game open in `count` tabs of one session (opening it started it)."""
    session_key, key = await session(name)
    race = await database_sync_to_async(rule_book_race)(key, mode=Race.SOLO, name=name)
    tabs = [Socket(race.room, session_key) for _ in range(count)]
    for tab in tabs:
        await tab.open()
    for tab in tabs[:1]:
        await tab.expect("started")
    return tabs


async def test_a_session_spread_over_many_sockets_is_told_busy_and_is_not_closed(settings):
    settings.HALFMOON_SESSION_FRAME_RATE, settings.HALFMOON_SESSION_FRAME_BURST = 1, 3
    tabs = await solo_tabs(4)
    for tab in tabs:
        await tab.request("sync")
    answers = []
    for tab in tabs:
        frame = await tab.receive()
        while frame["type"] not in ("state", "error"):
            frame = await tab.receive()
        answers.append(frame.get("code", frame["type"]))
    assert sorted(answers) == ["busy", "state", "state", "state"]
    assert all(getattr(tab, "closed", None) is None for tab in tabs)
    await close_all(*tabs)


async def test_a_busy_move_is_not_applied_and_the_same_seq_goes_through_later(settings):
    settings.HALFMOON_SESSION_FRAME_RATE, settings.HALFMOON_SESSION_FRAME_BURST = 5, 1
    [ada] = await solo_tabs(1)
    await ada.request("move", seq=1, slots=WIN[0])
    await ada.request("move", seq=2, slots=WIN[1])
    answers = {}
    while len(answers) < 2:
        frame = await ada.receive()
        if frame["type"] in ("moved", "rejected"):
            answers[frame["seq"]] = (frame["type"], frame.get("code"))
    assert answers == {1: ("moved", None), 2: ("rejected", "busy")}
    await asyncio.sleep(0.3)
    await ada.request("move", seq=2, slots=WIN[1])
    assert (await ada.expect("moved"))["moves"] == 2
    await close_all(ada)


async def test_another_player_s_moves_go_through_while_one_session_is_busy(settings):
    settings.HALFMOON_SESSION_FRAME_RATE, settings.HALFMOON_SESSION_FRAME_BURST = 1, 2
    [ada] = await solo_tabs(1, "Ada")
    [bob] = await solo_tabs(1, "Bob")
    for _ in range(6):
        await ada.request("sync")
    for seq, move in enumerate(WIN[:2], start=1):
        await bob.request("move", seq=seq, slots=move)
        assert (await bob.expect("moved"))["seq"] == seq
    busy = []
    while len(busy) < 4:
        frame = await ada.receive()
        if frame["type"] == "error":
            busy.append(frame["code"])
    assert set(busy) == {"busy"}
    await close_all(ada, bob)


async def test_a_socket_that_sends_nothing_for_the_idle_limit_is_closed(settings):
    settings.HALFMOON_IDLE_S = 0.3
    [socket] = await solo_tabs(1)
    while (frame := await socket.receive(timeout=3))["type"] != "closed":
        pass
    assert frame["code"] == 4408
    await socket.close()
