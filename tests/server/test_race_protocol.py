"""The race protocol over real websockets (docs/protocol.md), one rule per test."""

import pytest
from channels.db import database_sync_to_async

from game.models import Move

from .conftest import WIN, Socket, close_all, rule_book_race, session, started_race

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_new_socket_gets_a_state_snapshot_with_no_board_in_the_lobby():
    session_key, key = await session()
    race = await database_sync_to_async(rule_book_race)(key)
    socket = Socket(race.room, session_key)
    state = await socket.open()
    assert state["race"]["room"] == race.room
    assert state["race"]["status"] == "lobby"
    assert state["you"] == {"player": None, "name": None, "role": "spectator", "host": True}
    assert state["board"] is None
    await close_all(socket)


async def test_players_join_start_count_down_and_get_their_board_when_it_starts():
    race, players = await started_race("Ada", "Bob")
    (ada, ada_state), (bob, bob_state) = players
    assert ada_state["race"]["status"] == "running"
    assert [p["name"] for p in ada_state["players"]] == ["Ada", "Bob"]
    countdown = next(f for f in ada.seen if f["type"] == "countdown")
    started = next(f for f in ada.seen if f["type"] == "started")
    assert started["started_at"] == countdown["starts_at"]
    assert started["event"] == countdown["event"] + 1
    board = ada_state["board"]
    assert board["seq"] == 0 and board["score"] == 0 and board["cards_left"] == 104
    assert board["slots"] == bob_state["board"]["slots"]
    assert board["slots"][0]["slot"] == "P1" and board["slots"][0]["count"] == 8
    await close_all(ada, bob)


async def test_a_legal_move_is_acknowledged_to_the_mover_and_broadcast_as_progress():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    await ada.request("move", seq=1, slots=WIN[0])
    moved = await ada.expect("moved")
    assert moved["seq"] == 1 and moved["kind"] == "move" and moved["score"] == 10
    assert set(moved["removed"]) == set(WIN[0]) and moved["can_undo"] is True
    progress = await bob.expect("progress")
    assert progress["player"] == moved_player(ada) and progress["slots"] == WIN[0]
    assert progress["score"] == 10 and progress["heights"][0] == 7
    assert await database_sync_to_async(Move.objects.count)() == 1
    await close_all(ada, bob)


def moved_player(socket):
    return next(f for f in socket.seen if f["type"] == "state" and f["board"])["you"]["player"]
