"""
A race's frames to the sockets of this process directly, and to other processes
through the channel layer only when some of the race's sockets are there.

The entrance routes every socket of a race to one process (deploy/nginx.conf
hashes the room), so nearly every frame is made where all its readers are:
handing it to them here costs a function call each, where a channel-layer
message per socket cost a Redis round trip, a decode and a consumer wake-up.
Any process may still serve any race (a reload through another entrance, a
process that died). Each process with sockets in a race keeps one relay
channel in the race's group and says so: `hello` when its first socket of the
race comes, answered `here` by the others, `bye` when its last one goes. A frame
goes to Redis only while another process is known to be there. The frames a
process kept to itself are sent again when a `hello` arrives, so a newcomer
misses none made while the news travelled; its clients drop the ones their
snapshot already holds (by `event`). A process that vanishes without `bye`
only costs the others their publishing; a newcomer that hears no one says
`hello` again at its next few heartbeats, in case the first was lost.
"""

import asyncio
import collections
import logging
import time
import uuid
import weakref

from channels.layers import get_channel_layer
from channels_redis.utils import _consistent_hash
from django.conf import settings

from game.base import metrics

logger = logging.getLogger(__name__)
ORIGIN = uuid.uuid4().hex
"""This process, as named in what it publishes."""
SUBSCRIBE_WAIT_S = 2.0
"""How long a socket waits for its race's subscription before it is refused (4503)."""
KEPT_S = 5.0
"""How long a frame kept from Redis may still be sent again to a newcomer."""
GREETINGS = 3
"""Heartbeats at which a process that hears no one in a race says `hello` again."""

_sockets = {}
"""room -> {socket: its event loop} for this process's sockets in that race (objects with
`async race_frame(message)`); daphne runs one loop, tests one per test."""
_relays = weakref.WeakKeyDictionary()
_publishers = weakref.WeakKeyDictionary()
metrics.races_open.set_function(lambda: len(_sockets))


def group_name(room):
    return f"race-{room}"


async def join(room, socket):
    """Deliver the race's frames to `socket` from now on; False when the channel layer
    (Redis) does not answer in time, and then nothing is joined."""
    _sockets.setdefault(room, {})[socket] = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(SUBSCRIBE_WAIT_S):
            relay = await _relay()
            if relay is not None:
                await relay.enter(room)
    except Exception:
        logger.warning("race %s: channel layer unavailable", room)
        await leave(room, socket)
        return False
    return True


async def leave(room, socket):
    """Stop delivering to `socket`; the last socket of a race here ends the subscription."""
    loop = asyncio.get_running_loop()
    sockets = _sockets.get(room, {})
    sockets.pop(socket, None)
    if not sockets:
        _sockets.pop(room, None)
    relay = _relays.get(loop)
    if relay is not None and room in relay.rooms and loop not in sockets.values():
        await relay.unsubscribe(room)


def watched(room):
    """Whether this process has sockets of `room` (a race, or any other stream)."""
    return bool(_sockets.get(room))


async def publish(room, message):
    """Hand `message` (a `broadcast.envelope`) to this process's sockets in the race, then
    to the other processes' if any may be there."""
    await deliver(room, message)
    relay = _relays.get(asyncio.get_running_loop())
    if relay is not None and relay.alone(room):
        relay.keep(room, message)
        return
    layer = get_channel_layer()
    if layer is not None:
        await _send(layer, room, _tagged(room, message))


async def deliver(room, message):
    here = asyncio.get_running_loop()
    for socket, loop in list(_sockets.get(room, {}).items()):
        if loop is here:
            if not socket.race_frame_now(message):
                await socket.race_frame(message)
        elif not loop.is_closed():
            asyncio.run_coroutine_threadsafe(socket.race_frame(message), loop)


def _tagged(room, message):
    return {**message, "room": room, "origin": ORIGIN}


def _news(kind, room):
    return {"type": f"race.{kind}", "room": room, "origin": ORIGIN}


class Relay:
    """This event loop's channel in the groups of its races: frames from other processes,
    and who else is in each race."""

    def __init__(self, layer, channel):
        self.layer, self.channel = layer, channel
        self.rooms = {}
        """room -> heartbeats left at which to say `hello` again while alone."""
        self.others = {}
        """room -> the other processes known to have sockets in it."""
        self.kept = {}
        """room -> recent frames not sent to Redis, (monotonic time, message)."""
        self.entering = {}
        """room -> the subscription under way."""
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self.run()), loop.create_task(self.greet())]

    def alone(self, room):
        return room in self.rooms and not self.others.get(room)

    def keep(self, room, message):
        kept = self.kept.get(room)
        if kept is None:  # not setdefault's argument: a deque made for every frame
            kept = self.kept[room] = collections.deque(maxlen=64)
        kept.append((time.monotonic(), message))

    async def enter(self, room):
        """Subscribed to the race's group: once, however many of its sockets come at once
        (a replica stopping sends all of a race's players here within a second)."""
        if room in self.rooms:
            return
        entering = self.entering.get(room)
        if entering is None:
            entering = self.entering[room] = asyncio.ensure_future(self.subscribe(room))
            entering.add_done_callback(lambda _: self.entering.pop(room, None))
        await asyncio.shield(entering)  # a socket that closes leaves the others theirs

    async def subscribe(self, room):
        """The race's group subscribed (a command sent, no answer awaited), then `hello`
        said without waiting for it: the socket needs only the subscription before it
        reads its state, and a crowd arriving on a busy process waited a round trip each
        for its greetings (2 s and more). A `hello` lost is said again by `greet`."""
        await self.layer.group_add(group_name(room), self.channel)
        self.rooms[room] = GREETINGS
        asyncio.ensure_future(self.hello(room))

    async def hello(self, room):
        try:
            await _send(self.layer, room, _news("hello", room))
        except Exception:
            logger.warning("race %s: hello not sent; the next heartbeat tries", room)

    async def unsubscribe(self, room):
        self.rooms.pop(room, None)
        self.others.pop(room, None)
        self.kept.pop(room, None)
        group = group_name(room)
        try:
            await _send(self.layer, room, _news("bye", room))
            await self.layer.group_discard(group, self.channel)
        except Exception:  # the others keep publishing to us; the layer expires the group
            logger.warning("race %s: could not leave the race's group", room)

    async def run(self):
        while True:
            try:
                message = await self.layer.receive(self.channel)
                if message.get("origin") != ORIGIN:
                    await self.heard(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer reconnects; frames missed meanwhile show as a gap
                logger.exception("relay: channel layer receive failed")
                await asyncio.sleep(0.5)

    async def heard(self, message):
        room, kind = message["room"], message["type"]
        if kind == "race.frame":
            await deliver(room, message)
        elif room not in self.rooms:
            return
        elif kind == "race.bye":
            self.others.get(room, set()).discard(message["origin"])
        else:
            self.others.setdefault(room, set()).add(message["origin"])
            if kind == "race.hello":
                await _send(self.layer, room, _news("here", room))
                await self.send_kept(room)

    async def send_kept(self, room):
        """The frames this process kept to itself lately, for a process that just came."""
        recent = time.monotonic() - KEPT_S
        for at, message in self.kept.pop(room, ()):
            if at >= recent:
                await _send(self.layer, room, _tagged(room, message))

    async def greet(self):
        """Say `hello` again in the races this process joined lately and hears no one in."""
        while True:
            await asyncio.sleep(settings.HALFMOON_HEARTBEAT_S)
            for room, left in list(self.rooms.items()):
                if not left or not self.alone(room):
                    continue
                self.rooms[room] = left - 1
                try:
                    await _send(self.layer, room, _news("hello", room))
                except Exception:
                    logger.warning("race %s: hello not sent; the next heartbeat tries", room)
                    break


async def _relay():
    loop = asyncio.get_running_loop()
    if loop not in _relays:
        layer = get_channel_layer()
        if layer is None:
            return None
        channel = await layer.new_channel()
        if loop not in _relays:  # another socket may have made it meanwhile
            _relays[loop] = Relay(layer, channel)
    return _relays[loop]


async def _send(layer, room, message):
    """`message` to the race's group: through this loop's `Publisher` on the pub/sub layer,
    else the layer's own `group_send`."""
    if settings.CHANNEL_LAYER != "pubsub" or not settings.REDIS_URL:
        await layer.group_send(group_name(room), message)
        return
    loop = asyncio.get_running_loop()
    if loop not in _publishers:
        _publishers[loop] = Publisher(layer)
    await _publishers[loop].send(room, message)


class Publisher:
    """This event loop's publishes to races' groups, all that waited in one Redis pipeline.

    channels-redis's pub/sub layer sends one `PUBLISH` a round trip, each behind one lock
    per Redis connection (subscriptions take it too), and each reply waits for a turn of
    the event loop: on a busy process the publishes of a race split over two processes,
    and the greetings of a crowd arriving, queued behind each other by the turn (the split
    placement at 1,000 players: a move p50 1.25 s). Here a round trip takes every publish
    that waited for it, in order, as the layer would have sent them (its channel name
    and serializer), so a receiving process cannot tell the difference. With the layer
    sharded over several Redis (CHANNEL_LAYER_URLS), each channel goes to the one its
    name hashes to, by the layer's own hash: one pipeline a Redis, each channel's
    publishes in order."""

    def __init__(self, layer):
        import redis.asyncio

        self.layer, self.waiting, self.task = layer, [], None
        self.clients = [
            redis.asyncio.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
            for url in settings.CHANNEL_LAYER_URLS
        ]

    async def send(self, room, message):
        channel = self.layer._get_group_channel_name(group_name(room))
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((channel, self.layer.serialize(message), done))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())
        await done

    async def run(self):
        while self.waiting:
            batch, self.waiting = self.waiting, []
            shards = collections.defaultdict(list)
            for channel, data, _ in batch:
                shards[_consistent_hash(channel, len(self.clients))].append((channel, data))
            try:
                await asyncio.gather(*(self.publish(n, sent) for n, sent in shards.items()))
            except Exception as exc:
                for *_, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for *_, done in batch:
                if not done.done():
                    done.set_result(None)

    async def publish(self, shard, messages):
        """[(channel, data)] published in order on the Redis of `shard`, one round trip."""
        async with self.clients[shard].pipeline(transaction=False) as pipe:
            for channel, data in messages:
                pipe.publish(channel, data)
            await pipe.execute()
