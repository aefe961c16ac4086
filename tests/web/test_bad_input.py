"""Bad input is answered, never crashes a consumer, and never changes a race."""

import json

import pytest
from channels.db import database_sync_to_async

from game.models import Move
from tests.support.server import (
    ORIGIN,
    WIN,
    Socket,
    close_all,
    rule_book_race,
    session,
    started_race,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"move"', "bad_json"),
        ("[" * 2000 + "]" * 2000, "bad_json"),
        ('{"type": "move", "seq": 1, "slots": ' + "[" * 1500 + "]" * 1500 + "}", "bad_json"),
        (
            json.dumps({"type": "move", "seq": 1, "slots": ["P1", "P8"], "pad": "x" * 4100}),
            "too_large",
        ),
        ("{}", "unknown_type"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": 7}', "unknown_type"),
        ('{"type": "move", "seq": "1", "slots": ["P1", "P8"]}', "bad_field"),
        ('{"type": "move", "seq": true, "slots": ["P1", "P8"]}', "bad_field"),
        ('{"type": "move", "seq": 0, "slots": ["P1", "P8"]}', "bad_field"),
        ('{"type": "move", "seq": 1.5, "slots": ["P1", "P8"]}', "bad_field"),
        ('{"type": "move", "seq": 99999999999, "slots": ["P1", "P8"]}', "bad_field"),
        ('{"type": "move", "seq": 1}', "bad_field"),
        ('{"type": "move", "seq": 1, "slots": "P1 P8"}', "bad_field"),
        ('{"type": "move", "seq": 1, "slots": ["P1", "P8", "P2", "P3"]}', "bad_field"),
        ('{"type": "move", "seq": 1, "slots": ["P1", 8]}', "bad_field"),
        ('{"type": "move", "seq": 1, "slots": ["P1", "PILE8"]}', "bad_field"),
        ('{"type": "undo"}', "bad_field"),
        ('{"type": "join"}', "bad_name"),
        ('{"type": "join", "name": "   "}', "bad_name"),
        ('{"type": "join", "name": 42}', "bad_name"),
        ('{"type": "join", "name": "a\\u0000b"}', "bad_name"),
        ('{"type": "join", "name": "' + "x" * 25 + '"}', "bad_name"),
    ],
)
async def test_a_malformed_frame_gets_an_error_and_the_race_is_untouched(text, code):
    race, [(ada, state)] = await started_race("Ada")
    await ada.send_text(text)
    error = await ada.expect("error")
    assert error["code"] == code and error["message"]
    await ada.request("ping")
    await ada.expect("pong")
    await ada.request("sync")
    assert (await ada.expect("state"))["board"] == state["board"]
    assert await database_sync_to_async(Move.objects.count)() == 0
    await close_all(ada)


async def test_a_binary_frame_is_refused_as_bad_json():
    race, [(ada, _)] = await started_race("Ada")
    await ada.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await ada.expect("error"))["code"] == "bad_json"
    await close_all(ada)


async def test_slot_names_are_case_insensitive():
    race, [(ada, _)] = await started_race("Ada")
    await ada.request("move", seq=1, slots=[slot.lower() for slot in WIN[0]])
    assert (await ada.expect("moved"))["slots"] == WIN[0]
    await close_all(ada)


async def test_a_socket_that_floods_is_told_and_closed_with_4008(settings):
    settings.HALFMOON_FRAME_BURST = 40
    race, [(ada, _)] = await started_race("Ada")
    for _ in range(60):
        await ada.request("ping")
    frames = [await ada.receive() for _ in range(42)]
    assert [f["type"] for f in frames[:40]] == ["pong"] * 40
    assert frames[40]["code"] == "rate_limited"
    assert frames[41] == {"type": "closed", "code": 4008}


async def test_a_handshake_without_an_allowed_origin_is_refused():
    session_key, key = await session()
    race = await database_sync_to_async(rule_book_race)(key)
    for origin in (None, (b"origin", b"http://evil.example")):
        socket = Socket(race.room, session_key, origin=origin)
        connected, _ = await socket.communicator.connect(timeout=3)
        assert not connected


async def test_an_unknown_room_is_told_and_closed_with_4404():
    socket = Socket("NOROOM", (await session())[0], origin=ORIGIN)
    connected, _ = await socket.communicator.connect(timeout=3)
    assert connected
    assert (await socket.receive())["code"] == "no_such_race"
    assert await socket.receive() == {"type": "closed", "code": 4404}


async def test_a_socket_without_a_session_cookie_is_refused_with_4401():
    """Every page sets a session; a socket without one is a script, not a new player."""
    race, [(ada, _)] = await started_race("Ada")
    for cookie in (None, "made-up-session-key"):
        stranger = Socket(race.room, cookie)
        connected, _ = await stranger.communicator.connect(timeout=3)
        assert connected
        assert (await stranger.receive())["code"] == "no_session"
        assert await stranger.receive() == {"type": "closed", "code": 4401}
    assert len((await ada.request("sync"), await ada.expect("state"))[1]["players"]) == 1
    await close_all(ada)


async def test_a_stranger_with_a_session_watches():
    race, [(ada, _)] = await started_race("Ada")
    stranger = Socket(race.room, (await session())[0])
    state = await stranger.open()
    assert state["you"]["role"] == "spectator"
    await close_all(ada, stranger)


async def test_one_session_opens_at_most_a_few_sockets(settings):
    settings.HALFMOON_SOCKETS_PER_SESSION = 2
    race, [(ada, _)] = await started_race("Ada")
    session_key = (await session())[0]
    tabs = [Socket(race.room, session_key) for _ in range(2)]
    for tab in tabs:
        await tab.open()
    third = Socket(race.room, session_key)
    assert (await third.communicator.connect(timeout=3))[0]
    assert (await third.receive())["code"] == "too_many_sockets"
    assert await third.receive() == {"type": "closed", "code": 4429}
    await tabs[0].close()
    again = Socket(race.room, session_key)
    await again.open()  # a closed tab gave its place back
    await close_all(ada, tabs[1], again)
