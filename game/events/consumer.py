"""
`EventConsumer`: a socket that receives an event's live standings, for its page, the
table's side panel of an event game, and any spectator. It sends nothing that
matters: the standings come from the event's one ticker (game/events/live.py), and a
player's own line is added on the way out by this socket's process.

It is held to the same door as a race socket, since a script can open either: it
takes a place in the socket limits per session and client address (4429 past them),
a socket that floods is closed (4008), one silent for HALFMOON_IDLE_S is closed
(4408), and on SIGTERM it is closed with 1012 so its page reconnects elsewhere. What it
reads is parsed by the race protocol's rule (`protocol.EVENT_FRAMES`): a ping is answered
`pong` with the server's clock, as a race socket's is; anything else an `error`.
"""

import asyncio
import itertools
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from game.base import limits
from game.base.errors import CloseCode, GameError
from game.events import live
from game.models import Event, EventEntry
from game.players import identity
from game.race import frames, protocol
from game.realtime import fanout, heartbeat, shutdown
from game.realtime.credit import Credit

_numbers = itertools.count(1)


def _viewer(event_id, session):
    """(the event exists, the viewer's entry id or None); a look saves no session."""
    if not Event.objects.filter(pk=event_id).exists():
        return False, None
    key = identity.viewer_key(session) if session is not None else None
    entry = EventEntry.objects.filter(event_id=event_id, player_key=key).first()
    return True, entry.pk if entry else None


def _seat(scope, socket_id):
    """The socket's place in the limits: its session's (a sessionless spectator counts
    only against its address) and its client address's."""
    session = scope.get("session")
    session_key = getattr(session, "session_key", None) or f"none:{socket_id}"
    seat = (session_key, limits.scope_address(scope))
    limits.open_socket(*seat, socket_id)
    return seat


class EventConsumer(AsyncWebsocketConsumer):
    channel_layer_alias = None
    """No channel per socket: fan-out hands the standings to `race_frame`."""
    watching = closed = False
    entry_id = seat = idle = gone = None

    async def connect(self):
        self.event_id = self.scope["url_route"]["kwargs"]["event"]
        self.socket_id = f"{fanout.ORIGIN}.e{next(_numbers)}"
        await self.accept()
        if shutdown.draining:  # this process is stopping: the page goes elsewhere
            await self.close(code=CloseCode.RESTART)
            return
        if not await self.take_seat() or not await self.find_viewer():
            return
        self.watching = await live.watch(self.event_id, self)
        if not self.watching:
            await self.close(code=CloseCode.UNAVAILABLE)
            return
        self.credit = Credit(settings.HALFMOON_FRAME_RATE, settings.HALFMOON_FRAME_BURST)
        self.last_heard, self.gone = time.monotonic(), asyncio.Event()
        self.idle = asyncio.ensure_future(self.close_when_idle())
        shutdown.track(self)

    async def take_seat(self):
        """A place in the socket limits; False once refused (an `error`, then 4429)."""
        try:
            self.seat = await database_sync_to_async(_seat)(self.scope, self.socket_id)
            heartbeat.start()
        except GameError as exc:
            await self.refuse(exc.code, exc.message, CloseCode.TOO_MANY_SOCKETS)
            return False
        except Exception:  # the socket counts live in Redis, which does not answer
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        return True

    async def find_viewer(self):
        """The event and the viewer's entry; False once the socket was closed (4404 for
        no such event, 4503 when the database does not answer: the page tries later)."""
        try:
            found, self.entry_id = await database_sync_to_async(_viewer)(
                self.event_id, self.scope.get("session")
            )
        except Exception:
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        if not found:
            await self.close(code=CloseCode.NO_SUCH_RACE)
        return found

    async def disconnect(self, code):
        self.closed = True
        if self.idle:
            self.idle.cancel()
        shutdown.untrack(self)
        try:
            if self.watching:
                self.watching = False
                await live.unwatch(self.event_id, self)
            if self.seat is not None:
                await database_sync_to_async(limits.close_socket)(*self.seat, self.socket_id)
        finally:
            if self.gone is not None:
                self.gone.set()

    async def receive(self, text_data=None, bytes_data=None):
        """A ping keeps an idle entrance from closing the socket, answered `pong`; any
        other frame an `error` (docs/protocol.md), and a flood closes the socket."""
        self.last_heard = time.monotonic()
        if not self.credit.spend():
            await self.refuse("rate_limited", "too many frames; closing", CloseCode.FLOOD)
            return
        try:
            protocol.parse(text_data, protocol.EVENT_FRAMES)
        except GameError as exc:
            await self.send(text_data=frames.encoded(frames.error(exc.code, exc.message)))
        else:
            await self.send(text_data=frames.encoded(frames.pong()))

    async def close_when_idle(self):
        """Close a socket that has sent nothing (not even a ping) for HALFMOON_IDLE_S."""
        while not self.closed:
            quiet = time.monotonic() - self.last_heard
            if quiet >= settings.HALFMOON_IDLE_S:
                await self.close(code=CloseCode.IDLE)
                return
            await asyncio.sleep(settings.HALFMOON_IDLE_S - quiet)

    async def restart(self):
        """This process is stopping (`shutdown`): close with 1012, so the page comes back
        at once elsewhere, and return once the socket is gone."""
        await self.close(code=CloseCode.RESTART)
        await self.gone.wait()

    async def refuse(self, code, message, close_code):
        """An `error` saying why, then the close."""
        await self.send(text_data=frames.encoded(frames.error(code, message)))
        await self.close(code=close_code)

    async def close(self, code=None, reason=None):
        """A `CloseCode` goes out as the plain int autobahn insists on."""
        code = int(code) if isinstance(code, CloseCode) else code
        await super().close(code=code, reason=reason)

    async def race_frame(self, message):
        for text in live.texts(self.event_id, message, self.entry_id):
            await self.send(text_data=text)
