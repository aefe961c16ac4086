"""
A game played alone started by its player's first socket the fast way
(game/race/alone_start.py, from game/race/arrival.py): the same frames and rows as the
careful way (`actions.connect`), started once however many sockets arrive together,
and left to the careful way when it would do more than start it.
"""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Deal, Entry, Race
from game.race import actions, arrival
from tests.support.server import WIN

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
KEY = "a" * 32
BLOCKED_AT_START = "HM1-N-AAAATTQ"
"""A numbered deal whose first twenty cards make no pair and no trio."""
TIMES = {"now", "starts_at", "started_at", "ends_at", "finished_at"}


@database_sync_to_async
def daily_attempt(key, code=RULE_BOOK_DEAL):
    """A newcomer's attempt at today's deal, as its Play leaves it: in the lobby, its
    one entry not yet announced."""
    today = timezone.now().date()
    deal = Deal.for_code(code)
    return actions.create_race(deal, key, mode=Race.DAILY, name="Ada", daily_date=today)


def alike(frame, entry_id):
    """`frame` with its instants, its room and the race's entry id left out."""
    if isinstance(frame, list):
        return [alike(each, entry_id) for each in frame]
    if not isinstance(frame, dict):
        return frame
    return {key: _alike(key, value, entry_id) for key, value in frame.items()}


def _alike(key, value, entry_id):
    if key in TIMES or key == "room":
        return key
    if key in ("id", "player", "host") and value == entry_id and type(value) is int:
        return "entry"
    return alike(value, entry_id)


@database_sync_to_async
def rows(race):
    race = Race.objects.get(pk=race.pk)
    entry = race.entries.get()
    limit_at = race.started_at + timezone.timedelta(seconds=race.time_limit_s)
    started = race.started_at is not None and race.starts_at == race.started_at
    return {
        "race": (race.status, race.event, started, limit_at.date()),
        "entry": (entry.status, entry.connected, entry.left_at, entry.seq),
    }


@database_sync_to_async
def careful(race, key=KEY, socket="careful-socket"):
    return actions.connect(race.room, key, socket)


def outcome(out, race):
    entry_id = race.entries.get().pk
    return alike(out.reply, entry_id), alike(out.broadcast, entry_id), out.player == entry_id


async def test_a_newcomers_first_socket_starts_the_attempt_as_the_careful_way_would():
    fast_race, careful_race = await daily_attempt(KEY), await daily_attempt("b" * 32)
    fast = await arrival.connect(fast_race.room, KEY, "fast-socket")
    slow = await careful(careful_race, "b" * 32)
    assert fast is not None
    assert [frame["type"] for frame in fast.broadcast] == ["player_joined", "started"]
    assert [frame["event"] for frame in fast.broadcast] == [1, 2]
    assert await database_sync_to_async(outcome)(fast, fast_race) == await database_sync_to_async(
        outcome
    )(slow, careful_race)
    assert await rows(fast_race) == await rows(careful_race)
    assert (await rows(fast_race))["race"][:3] == (Race.RUNNING, 2, True)
    assert fast.reply[0]["board"] is not None  # dealt: the tops of its game


async def test_its_first_move_after_the_fast_start_is_stored():
    race = await daily_attempt(KEY)
    out = await arrival.connect(race.room, KEY, "socket")
    moved = await database_sync_to_async(actions.move)(race.room, KEY, 1, WIN[0])
    assert moved.reply[0]["type"] == "moved" and moved.reply[0]["event"] == 3
    assert out.player == moved.broadcast[0]["player"]


async def test_two_tabs_arriving_together_start_it_once():
    race = await daily_attempt(KEY)
    first, second = await asyncio.gather(
        arrival.connect(race.room, KEY, "tab-1"), arrival.connect(race.room, KEY, "tab-2")
    )
    outs = [out for out in (first, second) if out is not None] or []
    if len(outs) == 1:  # the other goes the careful way, which finds it running
        outs.append(await careful(race, socket="tab-2"))
    started = [f for out in outs for f in out.broadcast if f["type"] == "started"]
    assert len(started) == 1
    assert all(out.reply[-1]["race"]["status"] == Race.RUNNING for out in outs)
    assert (await rows(race))["race"][:2] == (Race.RUNNING, 2)


async def test_the_fast_way_and_the_careful_way_together_start_it_once():
    race = await daily_attempt(KEY)
    fast, slow = await asyncio.gather(arrival.connect(race.room, KEY, "tab-1"), careful(race))
    outs = [slow] + ([fast] if fast is not None else [await careful(race, socket="tab-1")])
    started = [f for out in outs for f in out.broadcast if f["type"] == "started"]
    assert len(started) == 1
    assert (await rows(race))["race"][:2] == (Race.RUNNING, 2)


async def test_a_started_attempt_is_read_as_before_and_changes_nothing():
    race = await daily_attempt(KEY)
    await arrival.connect(race.room, KEY, "tab-1")
    again = await arrival.connect(race.room, KEY, "tab-2")
    assert again is not None and again.broadcast == []
    assert again.reply[0]["race"]["status"] == Race.RUNNING and again.reply[0]["event"] == 2
    assert (await rows(race))["race"][:2] == (Race.RUNNING, 2)


async def test_a_deal_blocked_at_the_start_goes_the_careful_way():
    race = await daily_attempt(KEY, BLOCKED_AT_START)
    assert await arrival.connect(race.room, KEY, "socket") is None
    assert (await rows_in_lobby(race)) == (Race.LOBBY, 0)
    out = await careful(race)
    assert out.reply[0]["players"][0]["status"] == Entry.BLOCKED


async def test_a_spectators_socket_does_not_start_it():
    race = await daily_attempt(KEY)
    assert await arrival.connect(race.room, "s" * 32, "watching") is None
    assert (await rows_in_lobby(race)) == (Race.LOBBY, 0)


@database_sync_to_async
def rows_in_lobby(race):
    race = Race.objects.get(pk=race.pk)
    return race.status, race.event
