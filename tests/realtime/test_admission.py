"""No client can make others wait: budgets across sockets, bounded queues shared fairly by
address, the database taken in turns, idle sockets."""

import asyncio
import collections

import pytest
from channels.db import database_sync_to_async

from game.models import Race
from game.realtime import admission
from tests.support.server import WIN, Socket, close_all, rule_book_race, session

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


def test_an_address_past_its_share_of_the_process_is_busy_and_another_is_not(settings, monkeypatch):
    monkeypatch.setattr(admission, "_pending", collections.Counter())  # no other test's
    settings.HALFMOON_PROCESS_QUEUE, settings.HALFMOON_SOCKET_QUEUE = 4, 1
    flood, honest = admission.Gate("s1", "10.0.0.1"), admission.Gate("s2", "10.0.0.2")
    for _ in range(4):
        assert flood.admit(0) == admission.ADMIT
        flood.started()
    assert flood.admit(0) == admission.BUSY  # the whole process's bound, alone
    assert honest.admit(0) == admission.ADMIT  # however full the process is
    honest.started()
    assert admission.share() == 2
    for _ in range(4):
        flood.finished()
    honest.finished()
    assert admission.share() == 4


async def test_the_database_is_taken_in_turns_by_address_not_in_order_of_arrival():
    """a and b keep a line; c's one call, and b's first, go ahead of the lines."""
    turns, order = admission.Turns(width=1), []
    release = asyncio.Event()

    async def call(name):
        order.append(name)
        if name == "a1":
            await release.wait()

    names = ["a1", "a2", "a3", "b1", "b2", "c1"]
    queued = [asyncio.ensure_future(turns.run(name[0], call, name)) for name in names]
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*queued)
    assert order == ["a1", "b1", "c1", "a2", "b2", "a3"]


async def test_a_call_cancelled_while_it_waits_its_turn_gives_up_its_place():
    turns, order = admission.Turns(width=1), []
    release = asyncio.Event()

    async def call(name):
        order.append(name)
        await release.wait()

    first = asyncio.ensure_future(turns.run("a", call, "a1"))
    gone = asyncio.ensure_future(turns.run("b", call, "b1"))
    last = asyncio.ensure_future(turns.run("c", call, "c1"))
    await asyncio.sleep(0)
    gone.cancel()
    release.set()
    await asyncio.gather(first, last)
    assert order == ["a1", "c1"] and not (turns.running or turns.new or turns.old)
