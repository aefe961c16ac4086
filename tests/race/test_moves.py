"""The fast move path (game/race/moves.py): the same result as the careful one, or none at all."""

import asyncio
from datetime import timedelta
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from game.models import Entry, Move, Race
from game.race import actions, moves
from game.results import games
from tests.support.server import WIN, racing_alone, rule_book_race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
KEY = "k" * 32


def running_solo():
    """A solo game its player opened: running, and its game in this process's cache."""
    race = rule_book_race(KEY, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, KEY, "socket")
    entry = Entry.objects.get(race=race)
    return race, entry


async def test_a_fast_move_is_stored_numbered_and_answered_like_a_careful_one():
    race, entry = await database_sync_to_async(running_solo)()
    out = await moves.play(race.room, entry.pk, 1, Move.MOVE, tuple(WIN[0]))
    assert out is not None
    [moved], [progress] = out.reply, out.broadcast
    stored = await database_sync_to_async(Entry.objects.get)(pk=entry.pk)
    race_now = await database_sync_to_async(Race.objects.get)(pk=race.pk)
    move = await database_sync_to_async(Move.objects.get)(entry=entry)
    assert (moved["seq"], moved["score"], moved["moves"]) == (1, stored.score, 1)
    assert (stored.seq, stored.moves, stored.cards_left) == (1, 1, 102)
    assert (move.seq, move.slots) == (1, WIN[0])
    assert progress["event"] == race_now.event and progress["heights"] == stored.heights


async def test_a_game_another_process_moved_goes_the_careful_way_and_nothing_is_stored():
    race, entry = await database_sync_to_async(running_solo)()
    await database_sync_to_async(actions.move)(race.room, KEY, 1, WIN[0])
    game = await database_sync_to_async(games.replay)(entry, race.deal, 0)
    games.cache.put(entry.pk, 0, game)  # this process still holds the game before it
    assert await moves.play(race.room, entry.pk, 1, Move.MOVE, tuple(WIN[1])) is None
    assert await database_sync_to_async(Move.objects.filter(entry=entry).count)() == 1


async def test_a_move_after_the_time_limit_is_not_stored_the_fast_way():
    race = await database_sync_to_async(racing_alone)(KEY)
    entry = await database_sync_to_async(Entry.objects.get)(race=race)
    assert await moves.play(race.room, entry.pk, 1, Move.MOVE, tuple(WIN[0])) is not None
    long_ago = timezone.now() - timedelta(hours=1)
    await database_sync_to_async(Race.objects.filter(pk=race.pk).update)(started_at=long_ago)
    assert await moves.play(race.room, entry.pk, 2, Move.MOVE, tuple(WIN[1])) is None
    assert await database_sync_to_async(Move.objects.count)() == 1


async def test_a_solo_game_hours_old_moves_the_fast_way():
    race, entry = await database_sync_to_async(running_solo)()
    long_ago = timezone.now() - timedelta(hours=5)
    await database_sync_to_async(Race.objects.filter(pk=race.pk).update)(started_at=long_ago)
    assert await moves.play(race.room, entry.pk, 1, Move.MOVE, tuple(WIN[0])) is not None


async def test_an_illegal_move_is_left_to_the_careful_way_with_the_game_kept():
    race, entry = await database_sync_to_async(running_solo)()
    assert await moves.play(race.room, entry.pk, 1, Move.MOVE, ("P1", "P2")) is None
    assert games.cache.take_current(entry.pk, 0) is not None
    out = await database_sync_to_async(actions.move)(race.room, KEY, 1, ["P1", "P2"])
    assert out.reply[0]["type"] == "rejected"


async def test_an_undo_the_fast_way_counts_as_an_assist():
    race, entry = await database_sync_to_async(running_solo)()
    assert await moves.play(race.room, entry.pk, 1, Move.MOVE, tuple(WIN[0])) is not None
    assert await moves.play(race.room, entry.pk, 2, Move.UNDO, ()) is not None
    stored = await database_sync_to_async(Entry.objects.get)(pk=entry.pk)
    assert (stored.undos, stored.moves, stored.seq) == (1, 0, 2)


def running_solos(count):
    games = []
    for n in range(count):
        key = f"{n:032d}"
        race = rule_book_race(key, mode=Race.SOLO, name=f"P{n}")
        actions.connect(race.room, key, f"socket-{n}")
        games.append(Entry.objects.select_related("race").get(race=race))
    return games


async def test_moves_that_arrive_together_are_each_stored_and_acknowledged():
    entries = await database_sync_to_async(running_solos)(6)
    outs = await asyncio.gather(
        *(moves.play(entry.race.room, entry.pk, 1, Move.MOVE, tuple(WIN[0])) for entry in entries)
    )
    assert all(out is not None and out.reply[0]["type"] == "moved" for out in outs)
    stored = await database_sync_to_async(list)(Move.objects.values_list("entry_id", "seq"))
    assert sorted(stored) == sorted((entry.pk, 1) for entry in entries)


async def test_a_batch_that_fails_acknowledges_none_of_its_moves():
    entries = await database_sync_to_async(running_solos)(2)
    events = await database_sync_to_async(list)(Race.objects.values_list("event", flat=True))
    good, bad = (first_move(entry, entry.race.room) for entry in entries)
    bad["kind"] = "x" * 100  # longer than the column: the whole transaction fails
    writer = moves.Writer(lanes=1)
    stores = (writer.store("A", good), writer.store("B", bad))
    results = await asyncio.gather(*stores, return_exceptions=True)
    assert all(isinstance(result, Exception) for result in results)
    assert not await database_sync_to_async(Move.objects.exists)()
    assert await database_sync_to_async(Entry.objects.filter(seq=0).count)() == 2
    after = await database_sync_to_async(list)(Race.objects.values_list("event", flat=True))
    assert after == events


def race_of(players):
    """A running race of `players` players, none has moved yet."""
    race = rule_book_race(KEY, name="P0")
    for n in range(1, players):
        actions.add_entry(race, f"{n:032d}", f"P{n}")
    Race.objects.filter(pk=race.pk).update(status=Race.RUNNING, started_at=timezone.now())
    Entry.objects.filter(race=race).update(status=Entry.PLAYING)
    race.refresh_from_db()
    return race, list(Entry.objects.filter(race=race).order_by("pk"))


def first_move(entry, room, seq=1):
    """The parameters of a move at `seq` (its numbers need not be the game's)."""
    return moves._params(
        room, SimpleNamespace(**vars_of(entry)), seq, Move.MOVE, WIN[0], timezone.now()
    )


async def stored_moves():
    rows = Move.objects.order_by("entry_id", "seq").values_list("entry_id", "seq")
    return await database_sync_to_async(list)(rows)


async def test_the_moves_of_a_race_in_one_batch_are_numbered_in_the_order_they_came():
    race, entries = await database_sync_to_async(race_of)(3)
    writer = moves.Writer(lanes=1)
    order = [entries[2], entries[0], entries[1]]
    events = await asyncio.gather(
        *(writer.store(race.room, first_move(e, race.room)) for e in order)
    )
    assert events == [race.event + 1, race.event + 2, race.event + 3]
    race_now = await database_sync_to_async(Race.objects.get)(pk=race.pk)
    assert race_now.event == race.event + 3
    assert await stored_moves() == [(entry.pk, 1) for entry in entries]


async def test_two_moves_of_one_entry_that_wait_together_apply_one_on_the_other():
    race, [entry] = await database_sync_to_async(race_of)(1)
    writer = moves.Writer(lanes=1)
    both = (first_move(entry, race.room, seq) for seq in (1, 2))
    events = await asyncio.gather(*(writer.store(race.room, move) for move in both))
    assert events == [race.event + 1, race.event + 2]
    assert await stored_moves() == [(entry.pk, 1), (entry.pk, 2)]
    assert (await database_sync_to_async(Entry.objects.get)(pk=entry.pk)).seq == 2


async def test_the_second_of_an_entrys_moves_fails_when_the_first_was_not_stored():
    race, [entry] = await database_sync_to_async(race_of)(1)
    first, second = (first_move(entry, race.room, seq) for seq in (1, 2))
    first["kind"] = "x" * 100  # the first's batch fails
    writer = moves.Writer(lanes=1)
    stores = (writer.store(race.room, first), writer.store(race.room, second))
    failed, event = await asyncio.gather(*stores, return_exceptions=True)
    assert isinstance(failed, Exception) and event is None
    assert await stored_moves() == []


async def test_a_move_whose_guard_no_longer_holds_gets_none_and_the_others_are_stored():
    race, entries = await database_sync_to_async(race_of)(3)
    over, [late] = await database_sync_to_async(race_of)(1)
    await database_sync_to_async(Race.objects.filter(pk=over.pk).update)(status=Race.FINISHED)
    moved_elsewhere = entries[1]  # another process stored its move 1 first
    await database_sync_to_async(Entry.objects.filter(pk=moved_elsewhere.pk).update)(seq=1)
    writer = moves.Writer(lanes=1)
    batch = [(race.room, entry) for entry in entries] + [(over.room, late)]
    stores = (writer.store(room, first_move(entry, room)) for room, entry in batch)
    events = await asyncio.gather(*stores)
    assert events == [race.event + 1, None, race.event + 2, None]
    assert await stored_moves() == [(entries[0].pk, 1), (entries[2].pk, 1)]
    assert (await database_sync_to_async(Race.objects.get)(pk=over.pk)).event == over.event


async def test_a_batch_locks_its_races_in_the_order_of_their_rooms():
    """Two processes' batches that share races (a race split over both) lock them in the
    same order, so they wait for each other instead of deadlocking; a race's moves stay
    in the order they came."""
    committed, release = [], asyncio.Event()

    async def commit(batch):
        committed.append([params["entry"] for params in batch])
        if len(committed) == 1:
            await release.wait()
        return [None] * len(batch)

    writer = moves.Writer(lanes=1, commit=commit)
    first = asyncio.ensure_future(writer.store("M", {"entry": 0}))
    while not committed:
        await asyncio.sleep(0)
    rest = [asyncio.ensure_future(writer.store(r, {"entry": n})) for n, r in enumerate("ZBZA", 1)]
    await asyncio.sleep(0)  # the four wait behind the first commit
    release.set()
    await asyncio.gather(first, *rest)
    assert committed == [[0], [4, 2, 1, 3]]


def vars_of(entry):
    return {
        "pk": entry.pk,
        "score": 2,
        "moves": 1,
        "cards_left": 102,
        "status": Entry.PLAYING,
        "heights": entry.heights,
    }


async def test_the_winning_move_is_left_to_the_careful_way_with_the_game_kept():
    race, entry = await database_sync_to_async(running_solo)()
    for seq, move in enumerate(WIN[:-1], start=1):
        assert await moves.play(race.room, entry.pk, seq, Move.MOVE, tuple(move)) is not None
    last = len(WIN)
    assert await moves.play(race.room, entry.pk, last, Move.MOVE, tuple(WIN[-1])) is None
    assert games.cache.take_current(entry.pk, last - 1).cards_left > 0
    out = await database_sync_to_async(actions.move)(race.room, KEY, last, WIN[-1])
    assert out.reply[0]["status"] == Entry.WON


@pytest.fixture
def lanes_via(database_proxy, monkeypatch, settings):
    """The lanes' connections go through the test's proxy to the database (returned);
    a lane waits 0.5 s for a refused database before failing its batch."""
    settings.DATABASE_WAIT_S = 0.5
    direct = moves._connection_kwargs
    via = {"host": "127.0.0.1", "port": database_proxy.port}
    monkeypatch.setattr(moves, "_connection_kwargs", lambda: {**direct(), **via})
    return database_proxy


def connections_through(proxy):
    return len(proxy.links) // 2  # a client socket and its upstream each


async def test_a_lane_keeps_one_connection_for_all_its_commits(lanes_via):
    race, entries = await database_sync_to_async(race_of)(4)
    writer = moves.Writer(lanes=1)
    for seq in (1, 2, 3):
        for entry in entries:
            assert await writer.store(race.room, first_move(entry, race.room, seq)) is not None
    assert connections_through(lanes_via) == 1
    assert len(await stored_moves()) == 12


async def test_a_move_after_a_database_blip_is_stored_at_once_on_a_new_connection(lanes_via):
    race, [entry] = await database_sync_to_async(race_of)(1)
    writer = moves.Writer(lanes=1)
    assert await writer.store(race.room, first_move(entry, race.room, 1)) == race.event + 1
    lanes_via.cut()  # while nobody moves: the lane's connection breaks unseen
    lanes_via.restore()
    assert await writer.store(race.room, first_move(entry, race.room, 2)) == race.event + 2
    assert connections_through(lanes_via) == 1
    assert await stored_moves() == [(entry.pk, 1), (entry.pk, 2)]


async def test_moves_in_an_outage_fail_and_the_next_ones_are_stored_once_it_is_over(lanes_via):
    race, [entry] = await database_sync_to_async(race_of)(1)
    writer = moves.Writer(lanes=1)
    assert await writer.store(race.room, first_move(entry, race.room, 1)) == race.event + 1
    lanes_via.cut()
    for _ in range(2):  # refused, and sent again: each fails, none is acknowledged
        with pytest.raises(TimeoutError):
            await writer.store(race.room, first_move(entry, race.room, 2))
    lanes_via.restore()
    assert await writer.store(race.room, first_move(entry, race.room, 2)) == race.event + 2
    assert await writer.store(race.room, first_move(entry, race.room, 3)) == race.event + 3
    assert await stored_moves() == [(entry.pk, 1), (entry.pk, 2), (entry.pk, 3)]
    assert (await database_sync_to_async(Entry.objects.get)(pk=entry.pk)).seq == 3


def _scanned_in_full(plan):
    """The tables a plan (EXPLAIN's JSON) reads row by row from start to end."""
    found = {plan["Relation Name"]} if plan["Node Type"] == "Seq Scan" else set()
    for child in plan.get("Plans", ()):
        found |= _scanned_in_full(child)
    return found


def _plan(cursor, statement, batch):
    cursor.execute("EXPLAIN (FORMAT JSON) " + statement, [moves._json(batch)])
    [[plan]] = cursor.fetchone()
    return plan["Plan"]


BUMP_ONLY = """
WITH batch AS MATERIALIZED (
    SELECT * FROM ROWS FROM (json_to_recordset(%s::json) AS (race bigint))
    WITH ORDINALITY AS batch (race, n)
)""" + moves.numbered_events("batch", "race", "game_race")
"""The race bump straight after a batch, as bench/ceiling.py's statement has it."""


def test_a_commit_finds_its_races_and_entries_by_key_however_many_there_are():
    """Joined to a batch (a JSON array whose size the planner cannot know) alone, the race
    bump scanned every race: a commit's cost grew with the table."""
    race, entry = running_solo()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT string_agg(quote_ident(column_name), ', ') FROM information_schema.columns"
            " WHERE table_name = 'game_race' AND column_name NOT IN ('id', 'room')"
        )
        [columns] = cursor.fetchone()
        cursor.execute(
            f"INSERT INTO game_race (room, {columns}) SELECT 'Z' || lpad(n::text, 7, '0'),"
            f" {columns} FROM game_race, generate_series(1, 5000) AS n WHERE id = %s",
            [race.pk],
        )
        cursor.execute("ANALYZE game_race; ANALYZE game_entry")
        params = moves._params(race.room, entry, 1, Move.MOVE, WIN[0], timezone.now())
        plans = [
            _plan(cursor, moves.STATEMENT, [params]),
            _plan(cursor, BUMP_ONLY, [{"race": race.pk}]),
        ]
    assert Race.objects.count() == 5001
    for plan in plans:
        assert _scanned_in_full(plan).isdisjoint({"game_race", "game_entry"})
