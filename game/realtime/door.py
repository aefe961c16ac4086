"""
`Door`: what every websocket of the site goes through, race or event, since a script
can open either. One place admits, seats, hears, idles out and closes; a socket's own
work (a race's frames, an event's standings) is a subclass's, behind it.

The door accepts, then closes at once with 1012 while this process is draining (the
client goes elsewhere); takes the socket's place in the limits per session and client
address (an `error`, then 4429 past them, 4401 without a session, 4503 when Redis does
not answer) and starts the heartbeat that renews it; closes a flood (4008) and a socket
silent for HALFMOON_IDLE_S (4408); on SIGTERM closes with 1012 so the page reconnects
elsewhere. Every frame a client sends is parsed by `protocol` with the socket's frame
types, a ping answered with `frames.pong` (the server's clock); every frame sent is
built by `frames`.
"""

import asyncio
import contextlib
import itertools
import logging
import time

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from game.base import limits
from game.base.errors import CloseCode, GameError
from game.race import frames, protocol
from game.realtime import fanout, heartbeat, shutdown

logger = logging.getLogger(__name__)
REFUSED = {"no_session": CloseCode.NO_SESSION}
"""A refused seat's close code, by its error code; any other is too many sockets."""
_numbers = itertools.count(1)
fast_sender = None
"""Set by the site (halfmoon_site/asgi.py, `fast_sends.sender`): daphne's `send` of a
socket -> a function that sends a text frame at once, or None."""


class Door(AsyncWebsocketConsumer):
    """One socket, from its accept to its close. A subclass says which frames it reads
    (`frame_types`), whose seat it takes (`seat_key`), what it joins once seated
    (`enter`), what its frames do (`flooding`, `take`) and what it leaves on the way out
    (`finish`, `leave`)."""

    channel_layer_alias = None
    """No channel per socket: `fanout` hands a room's frames to `race_frame`."""
    frame_types = None
    """The `protocol` Reader of the frames the socket reads (a ping at least)."""
    tag = ""
    """Put in the socket's id after the process's origin: whose socket it is."""
    seat = idle = gone = send_now = None
    closed = False

    async def connect(self):
        self.socket_id = f"{fanout.ORIGIN}.{self.tag}{next(_numbers)}"
        await self.accept()
        if shutdown.draining:  # this process is stopping: the client goes elsewhere
            await self.close(code=CloseCode.RESTART)
            return
        if not await self.take_seat():
            return
        self.last_heard = time.monotonic()
        if not await self.enter():
            return
        self.idle = asyncio.ensure_future(self.close_when_idle())
        self.gone = asyncio.Event()
        shutdown.track(self)
        if shutdown.draining:  # SIGTERM came while it was being seated
            asyncio.ensure_future(self.restart())
        await self.entered()

    async def take_seat(self):
        """The socket's place in the socket limits; False once it was refused (an `error`,
        then a close saying why) or Redis did not answer (4503)."""
        try:
            self.seat = await self.seat_key()
            await asyncio.to_thread(limits.open_socket, *self.seat, self.socket_id)
            heartbeat.start()
        except GameError as exc:
            self.seat = None
            close = REFUSED.get(exc.code, CloseCode.TOO_MANY_SOCKETS)
            await self.refuse(exc.code, exc.message, close)
            return False
        except Exception:  # the socket counts live in Redis, which does not answer
            logger.warning("socket %s: limits unavailable; closing 4503", self.socket_id)
            self.seat = None
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        return True

    async def disconnect(self, code):
        self.closed = True
        if self.idle:
            self.idle.cancel()
        await self.finish()
        if self.seat is None:
            return  # refused before it joined anything
        shutdown.untrack(self)
        try:
            await asyncio.to_thread(limits.close_socket, *self.seat, self.socket_id)
        finally:
            try:
                await self.leave()
            finally:
                if self.gone is not None:
                    self.gone.set()

    async def restart(self):
        """This process is stopping (`shutdown`): close with 1012, so the client comes
        back at once elsewhere, and return once the socket is gone."""
        await self.close(code=CloseCode.RESTART)
        await self.gone.wait()

    async def close(self, code=None, reason=None):
        """A `CloseCode` goes out as the plain int autobahn insists on."""
        code = int(code) if isinstance(code, CloseCode) else code
        await super().close(code=code, reason=reason)

    async def refuse(self, code, message, close_code):
        """An `error` saying why, then the close."""
        await self.send_frame(frames.error(code, message))
        await self.close(code=close_code)

    async def __call__(self, scope, receive, send):
        """Frames are taken one after another from daphne's queue.

        channels waits on all of a consumer's sources with a new task and an
        `asyncio.wait` for every message (`await_many_dispatch`); a socket here has one
        source, the client (no channel layer: `fanout` calls `race_frame`)."""
        self.scope, self.channel_layer, self.base_send = scope, None, send
        self.send_now = fast_sender(send) if fast_sender is not None else None
        with contextlib.suppress(StopConsumer):
            while True:
                await self.dispatch(await receive())

    async def dispatch(self, message):
        """Incoming frames skip channels' per-message database hop.

        Channels runs `close_old_connections` on the process's one database
        thread before every handler, so each frame would queue behind every
        move transaction of the process. The door touches no database for a frame
        (what a subclass runs there cleans up its own connections)."""
        if message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data=None, bytes_data=None):
        """Any frame keeps the socket from idling out; a flood closes it; a ping is
        answered `pong`, a frame the socket does not read an `error`, any other is `take`n."""
        self.last_heard = time.monotonic()
        if self.flooding():
            await self.refuse("rate_limited", "too many frames; closing", CloseCode.FLOOD)
            return
        try:
            message = protocol.parse(text_data, self.frame_types)
        except GameError as exc:
            await self.send_frame(frames.error(exc.code, exc.message))
            return
        if isinstance(message, protocol.Ping):
            await self.send_frame(frames.pong())
        else:
            await self.take(message)

    async def close_when_idle(self):
        """Close a socket that has sent nothing (not even a ping) for HALFMOON_IDLE_S."""
        while not self.closed:
            quiet = time.monotonic() - self.last_heard
            if quiet >= settings.HALFMOON_IDLE_S:
                await self.close(code=CloseCode.IDLE)
                return
            await asyncio.sleep(settings.HALFMOON_IDLE_S - quiet)

    async def send_frame(self, frame):
        await self.send_text(frames.encoded(frame))

    async def send_text(self, text):
        """Send, unless the socket is gone: a send racing a close is dropped, not raised."""
        if self.send_text_now(text):
            return
        try:  # straight to the server: `send(text_data=)` adds two calls a frame
            await self.base_send({"type": "websocket.send", "text": text})
        except Exception:
            self._dropped()

    def send_text_now(self, text):
        """`send_text` done at once where the server can (a plain frame on an open
        socket: the frames of a move), or dropped as the socket is gone: True. False
        when it must be awaited (`send_text`)."""
        if self.closed:
            return True
        if self.send_now is None:
            return False
        try:
            return self.send_now(text)
        except Exception:
            self._dropped()
            return True

    def _dropped(self):
        self.closed = True
        logger.info("socket %s: a frame to a closed socket was dropped", self.socket_id)

    # --- a socket's own part -------------------------------------------------------------

    async def seat_key(self):
        """(session key, client address): whose place in the limits this socket takes."""
        raise NotImplementedError

    async def enter(self):
        """Join what the socket serves, once seated; False once it was closed."""
        raise NotImplementedError

    async def entered(self):
        """Anything to send once the socket is in (and tracked for a restart)."""

    def flooding(self):
        """Spend one frame's credit; True when none is left (the door closes the socket)."""
        raise NotImplementedError

    def race_frame_now(self, message):
        """A frame of what the socket joined (`fanout`), handled at once: True; False
        when its `race_frame` must be awaited instead."""
        return False

    async def take(self, message):
        """A parsed frame other than a ping."""
        raise NotImplementedError

    async def finish(self):
        """On the way out, before the seat is given back: end the socket's own work."""

    async def leave(self):
        """On the way out, after the seat is given back: leave what `enter` joined."""
