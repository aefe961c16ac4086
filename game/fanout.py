"""
A race's frames to the sockets of this process directly, and to other processes
through the channel layer: one subscription per process and race, not per socket.

The entrance routes every socket of a race to one process (deploy/nginx.conf
hashes the room), so nearly every frame is made where all its readers are:
handing it to them here costs a function call each, where a channel-layer
message per socket cost a Redis round trip, a decode and a consumer wake-up.
Any process may still serve any race (a reload through another entrance, a
process that died): each process with sockets in a race keeps its one relay
channel in the race's group, and the relay hands on what other processes
publish, dropping the echo of its own.
"""

import asyncio
import logging
import uuid
import weakref

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
ORIGIN = uuid.uuid4().hex
"""This process, as named in the frames it publishes."""
SUBSCRIBE_WAIT_S = 2.0
"""How long a socket waits for its race's subscription before it is refused (4503)."""

_sockets = {}
"""room -> {socket: its event loop} for this process's sockets in that race (objects with
`async race_frame(message)`); daphne runs one loop, tests one per test."""
_relays = weakref.WeakKeyDictionary()


def group_name(room):
    return f"race-{room}"


async def join(room, socket):
    """Deliver the race's frames to `socket` from now on; False when the channel layer
    (Redis) does not answer in time, and then nothing is joined."""
    _sockets.setdefault(room, {})[socket] = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(SUBSCRIBE_WAIT_S):
            relay = await _relay()
            if relay is not None and room not in relay.rooms:
                await relay.layer.group_add(group_name(room), relay.channel)
                relay.rooms.add(room)
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
    if relay is None or room not in relay.rooms or loop in sockets.values():
        return
    relay.rooms.discard(room)
    try:
        await relay.layer.group_discard(group_name(room), relay.channel)
    except Exception:  # the subscription ends with the layer's group expiry instead
        logger.warning("race %s: could not leave the race's group", room)


async def publish(room, message):
    """Hand `message` (a `broadcast.envelope`) to this process's sockets in the race, then
    to the other processes'."""
    await deliver(room, message)
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group_name(room), {**message, "room": room, "origin": ORIGIN})


async def deliver(room, message):
    here = asyncio.get_running_loop()
    for socket, loop in list(_sockets.get(room, {}).items()):
        if loop is here:
            await socket.race_frame(message)
        elif not loop.is_closed():
            asyncio.run_coroutine_threadsafe(socket.race_frame(message), loop)


class Relay:
    """This process's channel in the groups of its races: frames from other processes."""

    def __init__(self, layer, channel):
        self.layer, self.channel, self.rooms = layer, channel, set()
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self):
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer reconnects; frames missed meanwhile show as a gap
                logger.exception("relay: channel layer receive failed")
                await asyncio.sleep(0.5)
                continue
            if message.get("origin") != ORIGIN:
                await deliver(message["room"], message)


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
