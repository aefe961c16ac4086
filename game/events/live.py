"""
Live standings for every socket of an event, on any process, at a flat cost.

An event of 1,000 cannot send each move to 999 others. So one process per event
computes the standings once a second (`standings.tick`: one query), encodes the frame
once, and publishes it on the event's stream (game/realtime/fanout.py: this process's
sockets directly, the others' through one relay each). Which process computes is a
lease in Redis (`Leases`, 2 s, renewed every tick by its holder): each process with
sockets of the event runs a ticker, and only the holder's does the work; if it dies
or its last socket goes, another takes over within the lease. Each process then gives
each of its players their own rank and neighbours (`frames.standings_you`) from the shared
order the message carries, one dictionary built per message and process.
"""

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from game.base.stores import PerUrl, redis_client
from game.events import standings
from game.race import frames
from game.realtime import fanout

logger = logging.getLogger(__name__)
LEASE_MS = 2000

_tickers = {}
"""(event loop, event id) -> this process's ticker task for the event."""
_last = {}
"""event id -> the last standings message this process delivered (for a new socket)."""
_positions = {}
"""event id -> (the message, {entry id: position}) for the last message delivered."""


def stream(event_id):
    """The fan-out key of an event's standings (never a room code: those are 8 capitals)."""
    return f"event-{event_id}"


_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""


class RedisLeases:
    def __init__(self, url):
        self.client = redis_client(url)
        self.renew = self.client.register_script(_RENEW)

    def hold(self, key, owner, ms):
        return bool(self.renew(keys=[key], args=[owner, ms]))


class MemoryLeases:
    """One process: it always holds every lease."""

    def hold(self, key, owner, ms):
        return True


leases = PerUrl(RedisLeases, lambda: MemoryLeases())


async def watch(event_id, socket):
    """Deliver the event's standings to `socket` from now on (False: the channel layer
    is down); the last standings this process has go to it at once."""
    if not await fanout.join(stream(event_id), socket):
        return False
    loop = asyncio.get_running_loop()
    task = _tickers.get((loop, event_id))
    if task is None or task.done():
        _tickers[(loop, event_id)] = loop.create_task(_ticker(event_id))
    if event_id in _last:
        await socket.race_frame(_last[event_id])
    return True


async def unwatch(event_id, socket):
    await fanout.leave(stream(event_id), socket)


async def _ticker(event_id):
    """Once a second while this process has sockets of the event: compute and publish
    if this process holds the event's lease."""
    key, loop = stream(event_id), asyncio.get_running_loop()
    due = loop.time()
    try:
        while fanout.watched(key):
            try:
                if await asyncio.to_thread(_hold, key):
                    await publish(event_id)
            except Exception:  # the next tick tries again: a blip must not end the ticker
                logger.exception("event %s: standings tick failed", event_id)
            # On a fixed beat, not a second after the work: a slow tick does not make the
            # standings older; one late by more than a beat is not made up in a burst.
            due = max(due + settings.HALFMOON_EVENT_TICK_S, loop.time())
            await asyncio.sleep(due - loop.time())
    finally:
        _tickers.pop((asyncio.get_running_loop(), event_id), None)
        _last.pop(event_id, None)
        _positions.pop(event_id, None)


def _hold(key):
    return leases().hold(f"lease:{key}", fanout.ORIGIN, LEASE_MS)


async def publish(event_id):
    """Compute the standings once, encode them once, send them to every process."""
    frame, rows = await database_sync_to_async(standings.tick)(event_id)
    message = {
        "type": "race.frame",
        "kind": "standings",
        "event": None,
        "frame": None,
        "text": frames.encoded(frame),
        "order": [list(row) for row in rows],
    }
    await fanout.publish(stream(event_id), message)


def texts(event_id, message, entry_id):
    """What a socket of the event sends for `message`: the shared standings, then for a
    player their own line (`standings_you`); the position index is built once per
    message and process."""
    _last[event_id] = message
    if entry_id is None:
        return [message["text"]]
    cached = _positions.get(event_id)
    if cached is None or cached[0] is not message:
        cached = (message, {row[1]: i for i, row in enumerate(message["order"])})
        _positions[event_id] = cached
    position = cached[1].get(entry_id)
    if position is None:
        return [message["text"]]
    return [
        message["text"],
        frames.encoded(frames.standings_you(message["order"], position, standings.NEAR)),
    ]
