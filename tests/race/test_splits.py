"""
Splits against the ghost: every 8 removals of a ghost race, how far ahead of or behind
the recorded game the player is, and the split table at the end — each time read from
the stored `Move` rows of both games, over a real socket on PostgreSQL.
"""

import datetime

import pytest
from channels.db import database_sync_to_async

from game.base import days
from game.lobby import alone
from game.models import Entry, Race
from game.race import actions, splits
from game.results import move_log, standings
from tests.daily.test_ghosts import guest, race_the, rule_book_layout
from tests.support.server import WIN, Socket, close_all, guest_key, ranked_daily_win

pytestmark = pytest.mark.django_db(transaction=True)


def at_ms(entry, seq):
    """When the entry's stored row `seq` was played, in ms from its race's start."""
    (row,) = [row for row in move_log.rows(entry) if row.seq == seq]
    return standings.since_start(entry.race, row.at)


def expected(removals, you, ghost):
    return {
        "removals": removals,
        "you_ms": you,
        "ghost_ms": ghost,
        "delta_ms": None if you is None or ghost is None else you - ghost,
    }


def test_a_split_is_held_from_the_last_move_up_to_it_and_an_undo_below_takes_it_back():
    def point(ms, moves):
        return [ms, 0, moves, 104, None, "playing"]

    counts = [0, *range(1, 9), 7, 8, *range(9, 17), 15, 14]  # 8, undo, 8 again; 16, undo twice
    points = [point(100 * i, moves) for i, moves in enumerate(counts)]
    assert splits.held(points) == {8: 1000}  # the second time 8 was reached; 16 undone
    ghost = [point(50 * i, i) for i in range(25)] + [[1300, 0, 24, 0, None, "resigned"]]
    assert splits.table(points, ghost) == [
        expected(8, 1000, 400),
        expected(16, None, 800),
        expected(24, None, 1200),
    ]
    assert [splits.makes_split(n) for n in (0, 7, 8, 9, 16, 48)] == [0, 0, 1, 0, 1, 1]


def test_a_won_ghost_race_splits_as_both_games_stored_moves_say(yesterday):
    """Played the careful way (`actions`), won at 1 s a move against a leader at 2 s:
    six splits, each one the player's stored time minus the leader's."""
    leader = ranked_daily_win(yesterday, "ada", gap_s=2)
    key = guest_key(guest())
    race = alone.ghost_race(yesterday, leader, key, "bob")
    actions.connect(race.room, key, "test-socket")
    moved = [actions.move(race.room, key, seq, slots) for seq, slots in enumerate(WIN, 1)]
    player = Entry.objects.select_related("race").get(race=race)
    finished = next(f for f in moved[-1].broadcast if f["type"] == "finished")
    want = [expected(n, at_ms(player, n), at_ms(leader, n)) for n in range(8, 49, 8)]
    assert finished["splits"] == want
    live = [out.reply[0]["split"] for out in moved if "split" in out.reply[0]]
    assert live == want
    assert all(row["delta_ms"] < 0 for row in want)  # no one plays 48 moves in 96 s: ahead
    assert [f["type"] for f in actions.connect(race.room, key, "s2").reply] == ["state", "ghost"]
    assert actions.connect(race.room, key, "s3").reply[1]["splits"] == want


@pytest.fixture
def yesterday():
    rule_book_layout(days.today())
    return rule_book_layout(days.today() - datetime.timedelta(days=1))


async def test_over_a_socket_each_eighth_removal_says_the_split_an_undo_makes_a_new_one(
    yesterday, monkeypatch
):
    careful = []
    move = actions.move
    monkeypatch.setattr(
        actions,
        "move",
        lambda room, key, seq, slots: careful.append(seq) or move(room, key, seq, slots),
    )

    def arrange():
        leader = ranked_daily_win(yesterday, "ada", gap_s=2)
        client = guest()
        return leader, client, race_the(client, yesterday, "leader").json()["room"]

    leader, client, room = await database_sync_to_async(arrange)()
    careful.clear()  # the leader's win was played the careful way
    socket = Socket(room, client.cookies["sessionid"].value)
    await socket.open()
    table = (await socket.expect("ghost"))["splits"]
    assert [(row["removals"], row["you_ms"]) for row in table] == [
        (n, None) for n in range(8, 49, 8)
    ]
    said = []

    async def play(seq, kind="move", slots=None):
        await socket.request(kind, seq=seq, **({"slots": slots} if slots else {}))
        frame = await socket.expect("moved")
        said.append((seq, frame.get("split")))

    for seq, slots in enumerate(WIN[:8], start=1):
        await play(seq, slots=slots)  # the fast way: this process knows the ghost's pace
    await play(9, "undo")
    await play(10, slots=WIN[7])  # 8 removals again, later: a new split
    splits.paces.clear()  # as if the socket had connected to another process
    for seq, slots in enumerate(WIN[8:16], start=11):
        await play(seq, slots=slots)  # the 16th removal goes the careful way, which reads it
    await socket.request("resign")
    finished = await socket.expect("finished")
    await close_all(socket)

    def stored():
        player = Entry.objects.select_related("race").get(race__room=room)
        ghost = Entry.objects.select_related("race").get(pk=leader.pk)
        return player, [
            (n, at_ms(player, seq), at_ms(ghost, n)) for n, seq in ((8, 8), (8, 10), (16, 18))
        ]

    player, times = await database_sync_to_async(stored)()
    assert [(seq, split) for seq, split in said if split] == [
        (seq, expected(n, you, ghost))
        for seq, (n, you, ghost) in zip((8, 10, 18), times, strict=True)
    ]
    assert [seq for seq, split in said if split] == [8, 10, 18]  # nothing at the undo
    assert careful == [18]  # the rest the fast way, splits included
    (_, you8, ghost8), (_, you16, ghost16) = times[1], times[2]
    ghost_rest = await database_sync_to_async(
        lambda: [at_ms(leader, n) for n in (24, 32, 40, 48)]
    )()
    assert finished["splits"] == [
        expected(8, you8, ghost8),  # the second time: the first 8 was undone
        expected(16, you16, ghost16),
        *[expected(n, None, ms) for n, ms in zip((24, 32, 40, 48), ghost_rest, strict=True)],
    ]
    assert player.race.mode == Race.GHOST and player.status == Entry.RESIGNED


def test_no_race_but_a_ghost_race_has_splits(yesterday):
    key = guest_key(guest())
    race = actions.create_race(yesterday.deal, key, mode=Race.SOLO, name="bob")
    actions.connect(race.room, key, "test-socket")
    replies = [
        actions.move(race.room, key, seq, slots).reply[0] for seq, slots in enumerate(WIN[:8], 1)
    ]
    assert [frame for frame in replies if "split" in frame] == []
    assert splits.paces.get(Entry.objects.get(race=race).pk) is splits.NO_GHOST
    lobby = actions.create_race(yesterday.deal, key)  # a race joined from its lobby
    assert actions.connect(lobby.room, key, "test-socket").player is None
    joined = actions.join(lobby.room, key, "bob", "test-socket").player
    assert splits.paces.get(joined) is splits.NO_GHOST  # its 8th move goes the fast way
