"""The race protocol over real websockets (docs/protocol.md), one rule per test."""

import json
import re
import time

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from game.lobby import quick
from game.models import Move, Race
from game.realtime import broadcast
from tests.support.server import WIN, Socket, close_all, rule_book_race, session, started_race

pytestmark = pytest.mark.django_db(transaction=True)
CARD = re.compile(r'"(?:[2-9]|10|[AJQK])[SHDC]"')


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


@pytest.mark.parametrize(
    ("slots", "code"),
    [
        (["P1", "P2"], "sum_not_11"),
        (["P3", "P5"], "needs_jqk"),
        (["P13", "P1"], "bad_slot"),
        (["P1", "P1"], "duplicate_slot"),
        (["P1"], "bad_count"),
    ],
)
async def test_a_move_the_rules_refuse_is_rejected_with_its_code_and_keeps_its_seq(slots, code):
    race, [(ada, _)] = await started_race("Ada")
    await ada.request("move", seq=1, slots=slots)
    rejected = await ada.expect("rejected")
    assert (rejected["seq"], rejected["code"]) == (1, code)
    assert rejected["message"]
    await ada.request("move", seq=1, slots=WIN[0])
    assert (await ada.expect("moved"))["seq"] == 1
    await close_all(ada)


async def test_a_move_from_an_empty_slot_is_not_playable():
    race, [(ada, _)] = await started_race("Ada")
    await ada.request("move", seq=1, slots=["R8", "P9"])
    assert (await ada.expect("moved"))["revealed"]["R8"] is None
    await ada.request("move", seq=2, slots=["R8", "P10"])
    assert (await ada.expect("rejected"))["code"] == "not_playable"
    await close_all(ada)


async def test_undo_takes_back_the_last_move_and_nothing_before_the_first():
    race, [(ada, state), (bob, _)] = await started_race("Ada", "Bob")
    await ada.request("undo", seq=1)
    assert (await ada.expect("rejected"))["code"] == "nothing_to_undo"
    await ada.request("move", seq=1, slots=WIN[0])
    moved = await ada.expect("moved")
    await ada.request("undo", seq=2)
    undone = await ada.expect("moved")
    assert undone["kind"] == "undo" and undone["seq"] == 2
    assert undone["score"] == 0 and undone["moves"] == 0 and undone["can_undo"] is False
    assert undone["revealed"] == moved["removed"]
    progress = [await bob.expect("progress"), await bob.expect("progress")]
    assert [p["kind"] for p in progress] == ["move", "undo"]
    assert progress[1]["heights"] == [slot["count"] for slot in state["board"]["slots"]]
    await close_all(ada, bob)


async def test_a_seq_out_of_order_is_rejected_as_bad_seq():
    race, [(ada, _)] = await started_race("Ada")
    await ada.request("move", seq=3, slots=WIN[0])
    rejected = await ada.expect("rejected")
    assert rejected["code"] == "bad_seq" and "expected seq 1" in rejected["message"]
    await close_all(ada)


async def test_a_retried_seq_gets_the_same_answer_and_is_not_applied_twice():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    await ada.request("move", seq=1, slots=WIN[0])
    first = await ada.expect("moved")
    await ada.request("move", seq=2, slots=WIN[1])
    await ada.expect("moved")
    await ada.request("move", seq=1, slots=WIN[0])
    retried = await ada.expect("moved")
    assert "event" not in retried  # its broadcast went out the first time, numbered then
    assert retried == {key: value for key, value in first.items() if key != "event"}
    await ada.request("move", seq=1, slots=WIN[2])
    assert (await ada.expect("rejected"))["code"] == "bad_seq"
    rows = await database_sync_to_async(list)(Move.objects.values_list("seq", flat=True))
    assert sorted(rows) == [1, 2]
    await bob.expect("progress")
    await bob.expect("progress")
    assert await bob.silent()
    await close_all(ada, bob)


async def test_moves_before_the_start_are_not_running_and_spectators_are_not_players():
    session_key, key = await session()
    race = await database_sync_to_async(rule_book_race)(key, name="Ada")
    ada = Socket(race.room, session_key)
    await ada.open()
    await ada.request("move", seq=1, slots=WIN[0])
    assert (await ada.expect("rejected"))["code"] == "not_running"
    watcher = Socket(race.room, (await session())[0])
    await watcher.open()
    await watcher.request("move", seq=1, slots=WIN[0])
    assert (await watcher.expect("rejected"))["code"] == "not_a_player"
    await watcher.request("resign")
    assert (await watcher.expect("error"))["code"] == "not_a_player"
    await close_all(ada, watcher)


async def test_a_player_who_resigns_is_done_and_the_race_finishes_when_everyone_is():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    await ada.request("move", seq=1, slots=WIN[0])
    await ada.expect("moved")
    await bob.request("resign")
    resigned = await ada.expect("progress")
    while resigned["player"] == await player_id(ada):
        resigned = await ada.expect("progress")
    assert resigned["status"] == "resigned" and resigned["kind"] == "resign"
    await ada.request("resign")
    finished = await bob.expect("finished")
    assert [(s["rank"], s["name"], s["status"]) for s in finished["standings"]] == [
        (1, "Ada", "resigned"),
        (2, "Bob", "resigned"),
    ]
    await ada.request("move", seq=2, slots=WIN[1])
    assert (await ada.expect("rejected"))["code"] == "not_running"
    await close_all(ada, bob)


async def test_the_winner_of_a_race_ranks_first_and_the_race_ends_when_all_are_done():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    for seq, move in enumerate(WIN, start=1):
        await ada.request("move", seq=seq, slots=move)
        moved = await ada.expect("moved")
    assert moved["status"] == "won" and moved["score"] == 520 and moved["cards_left"] == 0
    assert moved["can_undo"] is False
    await ada.request("undo", seq=len(WIN) + 1)
    assert (await ada.expect("rejected"))["code"] == "game_over"
    await bob.request("move", seq=1, slots=WIN[0])
    await bob.expect("moved")
    await bob.request("resign")
    finished = await ada.expect("finished")
    first, second = finished["standings"]
    assert (first["name"], first["status"], first["moves"]) == ("Ada", "won", 48)
    assert first["time_ms"] >= 0 and second["name"] == "Bob"
    state = await sync(bob)
    assert state["race"]["status"] == "finished" and state["standings"] == finished["standings"]
    await close_all(ada, bob)


async def test_a_player_who_reconnects_gets_the_exact_board_back():
    session_key, key = await session()
    race = await database_sync_to_async(rule_book_race)(key, name="Ada")
    ada = Socket(race.room, session_key)
    await ada.open()
    await ada.request("start")
    await ada.expect("started")
    await ada.expect("state")
    for seq, move in enumerate(WIN[:5], start=1):
        await ada.request("move", seq=seq, slots=move)
        await ada.expect("moved")
    await ada.request("undo", seq=6)
    await ada.expect("moved")
    before = await sync(ada)
    await ada.close()
    again = Socket(race.room, session_key)
    after = await again.open()
    assert after["you"] == before["you"]
    assert after["board"] == before["board"]
    assert after["board"]["seq"] == 6 and after["board"]["moves"] == 4
    await again.request("move", seq=7, slots=WIN[4])
    assert (await again.expect("moved"))["moves"] == 5
    await close_all(again)


async def test_a_reconnecting_player_is_announced_and_a_leaving_one_is_marked_disconnected():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    bob_id = await player_id(bob)
    await bob.close()
    left = await ada.expect("player_left")
    assert left == {
        "type": "player_left",
        "event": left["event"],
        "player": bob_id,
        "connected": False,
    }
    await close_all(ada)


async def test_spectators_see_everyones_progress_and_never_a_card():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    watcher = Socket(race.room, (await session())[0])
    state = await watcher.open()
    assert state["you"]["role"] == "spectator" and state["board"] is None
    for seq, move in enumerate(WIN[:3], start=1):
        await ada.request("move", seq=seq, slots=move)
        await ada.expect("moved")
    await bob.request("resign")
    await ada.request("resign")
    await watcher.expect("finished")
    kinds = [frame["type"] for frame in watcher.seen]
    assert kinds.count("progress") == 5
    assert not CARD.search(json.dumps(watcher.seen)), watcher.seen
    await bob.expect("finished")
    about_ada = [f for f in bob.seen if f["type"] == "progress" and f["kind"] == "move"]
    assert len(about_ada) == 3 and not CARD.search(json.dumps(about_ada))
    await close_all(ada, bob, watcher)


async def test_every_broadcast_numbers_the_race_event_without_gaps():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    for seq, move in enumerate(WIN[:3], start=1):
        await ada.request("move", seq=seq, slots=move)
        await ada.expect("moved")
    for _ in range(3):
        last = await bob.expect("progress")
    events = [frame["event"] for frame in bob.seen if frame["type"] != "state"]
    assert events == list(range(events[0], last["event"] + 1))
    await close_all(ada, bob)


async def test_a_client_that_missed_a_broadcast_sees_the_gap_and_sync_catches_it_up(monkeypatch):
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    real_publish, dropped = broadcast.publish_outcome_async, []

    async def lossy_publish(room, outcome):
        if not dropped:  # the layer loses the first broadcast (a full channel, say)
            dropped.extend(outcome.broadcast)
            return
        await real_publish(room, outcome)

    monkeypatch.setattr(broadcast, "publish_outcome_async", lossy_publish)
    for seq, move in enumerate(WIN[:2], start=1):
        await ada.request("move", seq=seq, slots=move)
        await ada.expect("moved")
    before = max(frame["event"] for frame in bob.seen)
    arrived = await bob.expect("progress")
    assert arrived["event"] == before + 2 and dropped[0]["event"] == before + 1
    state = await sync(bob)
    assert state["event"] == arrived["event"]
    ada_card = next(p for p in state["players"] if p["id"] == arrived["player"])
    assert ada_card["moves"] == 2 and ada_card["score"] == 25
    await close_all(ada, bob)


async def test_the_time_limit_finishes_the_race_and_times_out_whoever_is_still_playing(settings):
    settings.HALFMOON_TIME_LIMIT_S = 1
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    await bob.request("resign")
    finished = await ada.expect("finished", timeout=4)
    statuses = {s["name"]: s["status"] for s in finished["standings"]}
    assert statuses == {"Ada": "timed_out", "Bob": "resigned"}
    await close_all(ada, bob)


async def test_only_the_host_starts_and_no_one_joins_a_started_race():
    host_session, host_key = await session()
    race = await database_sync_to_async(rule_book_race)(host_key)
    host, guest = Socket(race.room, host_session), Socket(race.room, (await session())[0])
    await host.open()
    await guest.open()
    await guest.request("join", name="Guest")
    await guest.expect("state")
    await guest.request("start")
    assert (await guest.expect("error"))["code"] == "not_host"
    await host.request("start")
    countdown = await guest.expect("countdown")
    assert len(countdown["players"]) == 1
    late = Socket(race.room, (await session())[0])
    await late.open()
    await late.request("join", name="Late")
    assert (await late.expect("error"))["code"] == "race_started"
    await close_all(host, guest, late)


async def test_a_race_with_no_player_cannot_start():
    host_session, host_key = await session()
    race = await database_sync_to_async(rule_book_race)(host_key)
    host = Socket(race.room, host_session)
    await host.open()
    await host.request("start")
    assert (await host.expect("error"))["code"] == "no_players"
    await close_all(host)


async def test_a_race_holds_at_most_eight_players():
    race, sockets = await lobby_of(8)
    ninth = Socket(race.room, (await session())[0])
    await ninth.open()
    await ninth.request("join", name="Ninth")
    assert (await ninth.expect("error"))["code"] == "race_full"
    await close_all(ninth, *sockets)


async def test_players_who_left_the_lobby_are_dropped_when_the_race_starts():
    race, (host, guest, gone) = await lobby_of(3)
    await gone.close()
    await host.request("start")
    countdown = await guest.expect("countdown")
    assert len(countdown["players"]) == 2
    await close_all(host, guest)


async def test_a_quick_race_starts_by_itself_with_the_players_who_came():
    sessions = [await session() for _ in range(3)]
    keys = [key for _, key in sessions]

    def seat_three():
        for key in keys:
            placed = quick.poll(key, key[:4])
        return placed["room"]

    with override_settings(HALFMOON_QUICK_WAIT_S=0):
        room = await database_sync_to_async(seat_three)()
    came = [Socket(room, session_key) for session_key, _ in sessions[:2]]
    for socket in came:
        assert (await socket.open())["race"]["status"] == "countdown"
    await came[0].expect("started", timeout=5)
    state = await came[0].expect("state")
    assert len(state["players"]) == 2 and state["board"]["seq"] == 0
    for socket in came:
        await socket.request("resign")
    assert [s["status"] for s in (await came[1].expect("finished"))["standings"]] == [
        "resigned",
        "resigned",
    ]
    await close_all(*came)


async def test_a_rematch_is_a_new_race_on_a_new_deal_for_the_same_players():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    await bob.request("rematch")
    assert (await bob.expect("error"))["code"] == "not_finished"
    await ada.request("resign")
    await bob.request("resign")
    await bob.expect("finished")
    await bob.request("rematch")
    assert (await bob.expect("error"))["code"] == "not_host"
    await ada.request("rematch")
    rematch = await bob.expect("rematch")
    assert rematch["url"] == f"/race/{rematch['room']}/" and rematch["room"] != race.room
    new = await database_sync_to_async(Race.objects.select_related("deal").get)(
        room=rematch["room"]
    )
    assert new.status == "lobby" and new.deal.code != race.deal.code
    names = await database_sync_to_async(list)(new.entries.values_list("name", flat=True))
    assert names == ["Ada", "Bob"]
    await ada.request("rematch")
    assert (await ada.expect("state"))["race"]["rematch"] == rematch["room"]
    await close_all(ada, bob)


async def test_a_solo_game_starts_as_soon_as_its_player_connects():
    session_key, key = await session()
    race = await database_sync_to_async(rule_book_race)(key, mode=Race.SOLO, name="Ada")
    ada = Socket(race.room, session_key)
    state = await ada.open()
    assert state["race"]["status"] == "running" and state["board"]["seq"] == 0
    assert state["race"]["time_limit_s"] is None and state["race"]["ends_at"] is None
    other = Socket(race.room, (await session())[0])
    await other.open()
    await other.request("join", name="Eve")
    assert (await other.expect("error"))["code"] == "race_started"
    await close_all(ada, other)


async def test_ping_gets_the_server_clock():
    race, [(ada, _)] = await started_race("Ada")
    await ada.request("ping")
    pong = await ada.expect("pong")
    assert abs(pong["now"] - time.time() * 1000) < 5000
    await close_all(ada)


async def player_id(socket):
    return next(f for f in socket.seen if f["type"] == "state" and f["you"]["player"])["you"][
        "player"
    ]


async def sync(socket):
    await socket.request("sync")
    return await socket.expect("state")


async def lobby_of(count):
    """A race in its lobby with `count` joined, connected players (the first hosts)."""
    sessions = [await session() for _ in range(count)]
    race = await database_sync_to_async(rule_book_race)(sessions[0][1])
    sockets = []
    for index, (session_key, _) in enumerate(sessions):
        socket = Socket(race.room, session_key)
        await socket.open()
        await socket.request("join", name=f"P{index}")
        await socket.expect("state")
        sockets.append(socket)
    return race, sockets


async def test_a_second_tab_that_only_watched_closing_does_not_drop_the_player_who_joined():
    host_session, host_key = await session()
    race = await database_sync_to_async(rule_book_race)(host_key, name="Host")
    host = Socket(race.room, host_session)
    await host.open()
    guest_session, _ = await session()
    tab, other_tab = Socket(race.room, guest_session), Socket(race.room, guest_session)
    await tab.open()
    await other_tab.open()
    await tab.request("join", name="Guest")
    guest = (await tab.expect("state"))["you"]["player"]
    await other_tab.close()
    await host.request("start")
    assert guest in (await host.expect("countdown"))["players"]
    assert not [f for f in host.seen if f["type"] == "player_left"]
    await close_all(host, tab)


async def test_the_mover_hears_its_move_once_and_the_room_hears_it_as_progress():
    race, [(ada, _), (bob, _)] = await started_race("Ada", "Bob")
    await ada.request("move", seq=1, slots=WIN[0])
    moved = await ada.expect("moved")
    progress = await bob.expect("progress")
    assert moved["event"] == progress["event"]
    await ada.request("sync")
    await ada.expect("state")
    same_event = [f["type"] for f in ada.seen if f.get("event") == moved["event"]]
    assert [kind for kind in same_event if kind != "state"] == ["moved"]
    await close_all(ada, bob)
