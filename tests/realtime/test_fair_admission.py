"""
Eight client addresses cannot starve an honest player. 320 sockets over
127.0.0.2-127.0.0.9 (all of 127.0.0.0/8 is loopback on Linux), each sending
`sync` five times a second — within every per-socket, per-session and
per-address budget — against a real daphne process, while an honest player
on 127.0.0.1 moves once a second: none of the honest player's moves is
answered `busy` (game/realtime/admission.py). The one queue a process kept for
everyone used to stay full of the flood's frames: 5 or 6 of 15 honest moves
were `busy` here (47 of 61 in the attack run that found it).
"""

import asyncio
import collections
import contextlib
import json
import random
import statistics
import time

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from game.models import Race
from game.testing.live import database_url, environment, running
from tests.support.server import WIN, new_session, rule_book_race

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 10)]
SOCKETS_PER_ADDRESS, FLOOD_RATE, HONEST_MOVES = 40, 5, 10


def flood_rooms_and_sessions():
    """A lobby race per address for the flood to watch, and a session per flood socket."""
    rooms = [rule_book_race("").room for _ in ADDRESSES]
    sessions = [new_session()[0] for _ in range(len(ADDRESSES) * SOCKETS_PER_ADDRESS)]
    return rooms, sessions


def honest_game():
    session_key, key = new_session("Honest")
    return rule_book_race(key, mode=Race.SOLO, name="Honest").room, session_key


async def open_socket(server, room, session_key, address="127.0.0.1"):
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws/race/{room}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={session_key}"},
        local_addr=(address, 0),
        open_timeout=20,
    )


async def open_flood(server, rooms, sessions):
    """The flood's sockets, a few handshakes at a time, spread over the addresses."""
    at_once = asyncio.Semaphore(16)

    async def one(n, session_key):
        async with at_once:
            room, address = rooms[n % len(rooms)], ADDRESSES[n % len(ADDRESSES)]
            return await open_socket(server, room, session_key, address)

    return await asyncio.gather(*(one(n, key) for n, key in enumerate(sessions)))


async def flood(ws, until, counts):
    """`sync` FLOOD_RATE times a second until `until`, reading every answer."""

    async def read():
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                counts["busy" if '"busy"' in text else "other"] += 1

    reader = asyncio.ensure_future(read())
    await asyncio.sleep(random.random() / FLOOD_RATE)
    with contextlib.suppress(ConnectionClosed):
        while time.monotonic() < until:
            await ws.send('{"type": "sync"}')
            await asyncio.sleep(1 / FLOOD_RATE)
    await ws.close()
    await reader


async def answer(ws, kinds):
    """The next frame of one of `kinds`, and how long it took."""
    started = time.monotonic()
    while (frame := json.loads(await ws.recv()))["type"] not in kinds:
        pass
    return frame, time.monotonic() - started


async def play_honestly(ws):
    """A move a second (one answered `busy` is sent again with the same seq): how many
    were `busy`, and how long each answer took."""
    busy, took, seq = 0, [], 1
    while seq <= HONEST_MOVES:
        beat = asyncio.ensure_future(asyncio.sleep(1))
        await ws.send(json.dumps({"type": "move", "seq": seq, "slots": WIN[seq - 1]}))
        frame, seconds = await answer(ws, {"moved", "rejected"})
        took.append(seconds)
        busy += frame.get("code") == "busy"
        seq += frame["type"] == "moved"
        await beat
    return busy, took


async def watch_honestly(ws, moving):
    """A `sync` a second from the honest player's other tab, each once the last was
    answered, while `moving`: how long each `state` took."""
    took = []
    while not moving.done():
        beat = asyncio.ensure_future(asyncio.sleep(1))
        await ws.send('{"type": "sync"}')
        state = asyncio.ensure_future(answer(ws, {"state"}))
        await asyncio.wait({state, moving}, return_when=asyncio.FIRST_COMPLETED)
        if not state.done():
            state.cancel()
            break
        took.append(state.result()[1])
        await beat
    return took


async def test_eight_addresses_flooding_do_not_make_an_honest_player_busy(tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        HALFMOON_SOCKETS_PER_ADDRESS=str(SOCKETS_PER_ADDRESS),  # the default: all they may open
        LOG_LEVEL="WARNING",
    )
    rooms, sessions = await database_sync_to_async(flood_rooms_and_sessions)()
    honest_room, honest_session = await database_sync_to_async(honest_game)()
    with running(1, env, tmp_path) as (server,):
        flooders = await open_flood(server, rooms, sessions)
        mover = await open_socket(server, honest_room, honest_session)
        await answer(mover, {"started"})
        watcher = await open_socket(server, honest_room, honest_session)
        await answer(watcher, {"state"})
        counts = collections.Counter()
        until = time.monotonic() + HONEST_MOVES + 3
        flooding = [asyncio.ensure_future(flood(ws, until, counts)) for ws in flooders]
        try:
            async with asyncio.timeout(30):
                moving = asyncio.ensure_future(play_honestly(mover))
                syncs = await watch_honestly(watcher, moving)
                busy, moves = await moving
        finally:
            await asyncio.gather(*flooding, return_exceptions=True)
            for ws in (mover, watcher):
                await ws.close()
    report = {
        "honest moves busy": busy,
        "flood answers": dict(counts),
        "honest move p50/max s": (statistics.median(moves), max(moves)),
        "honest sync p50/max s": (statistics.median(syncs), max(syncs)),
    }
    assert busy == 0, report
