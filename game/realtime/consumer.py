"""
`RaceConsumer`: one websocket, translated to `actions` calls and back.

Frames are parsed by `protocol`; a move the process can check on its cached
game is decided and stored by `moves` (one statement, on the event loop),
anything else by `actions` (on the process's database thread). The frames they
return go to this socket, and their broadcasts to the race through `broadcast`
(`fanout` hands them to this process's sockets by `race_frame`). The consumer
adds only order and time: a worker task takes the socket's frames one
by one, and a timer wakes up when the race's countdown or time limit is due
and asks `actions.tick` to apply it, so a race starts and ends on time even when
no one sends anything.
"""

import asyncio
import contextlib
import itertools
import logging
import time

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from game.base import limits, metrics
from game.base.errors import CloseCode, GameError
from game.models import Move
from game.players import identity
from game.race import actions, arrival, frames, moves, protocol
from game.realtime import admission, broadcast, fanout, heartbeat, shutdown

logger = logging.getLogger(__name__)
BUSY = "the server is busy: nothing was applied; try again in a moment"
_numbers = itertools.count(1)


def _call(action, *args):
    return action(*args)


_run = database_sync_to_async(_call)


def _identify(session, name=None):
    """The session's player key (and remembered name); saves a changed session.

    A socket is never anybody new: without a session that a page made (cookie
    and player key), it is refused (GameError `no_session`) — a fresh player
    per cookie-less socket would let one script take every seat of a race."""
    if identity.PLAYER_KEY not in session:
        raise GameError("no_session", "open the race's page first: it sets your session cookie")
    key = identity.player_key(session)
    if name is not None:
        identity.remember_name(session, name)
    if session.modified or session.session_key is None:
        session.save()
    return key


class RaceConsumer(AsyncWebsocketConsumer):
    """One socket. Its own frames are handled in order by a worker task, so that
    while one waits for the database the consumer still forwards the race's
    broadcasts at once (a consumer handles one message at a time, and a busy
    player would otherwise drain one opponent's progress per own move)."""

    channel_layer_alias = None
    """No channel per socket: `fanout` hands the race's frames to `race_frame`."""
    inbox = worker = timer = idle = entry_id = moved_event = moved_seq = seat = early = None
    received = None
    """When the frame being handled arrived (`work`): a `moved` is timed from it."""
    gone = None
    present = closed = subscribed = restarting = False

    async def connect(self):
        self.room = self.scope["url_route"]["kwargs"]["room"]
        self.socket_id = f"{fanout.ORIGIN}.{next(_numbers)}"
        await self.accept()
        if shutdown.draining:  # this process is stopping: the client goes elsewhere
            await self.close(code=CloseCode.RESTART)
            return
        if not await self.take_seat():
            return
        self.gate = admission.Gate(self.player_key, self.seat[1])
        self.last_heard = time.monotonic()
        self.early = []
        if not await self.subscribe():
            await self.close(code=CloseCode.UNAVAILABLE)
            return
        out = await self.read(arrival.connect(self.room, self.player_key, self.socket_id))
        out = out or await self.call(actions.connect, self.socket_id)
        self.present = out is not None
        if self.present:
            self.mark_present(out.player)
        else:
            await self.close(code=CloseCode.NO_SUCH_RACE)
            return
        self.inbox = asyncio.Queue()
        self.worker = asyncio.ensure_future(self.work())
        self.idle = asyncio.ensure_future(self.close_when_idle())
        self.gone = asyncio.Event()
        shutdown.track(self)
        if shutdown.draining:  # SIGTERM came while it was being seated
            asyncio.ensure_future(self.restart())
        await self.send_early()

    async def take_seat(self):
        """Who the socket is, and its place in the socket limits; False once it was
        refused (an `error`, then a close saying why)."""
        try:
            session = self.scope["session"]
            self.player_key = await arrival.player_key(session.session_key) or await _run(
                _identify, session
            )
            self.seat = (session.session_key, limits.scope_address(self.scope))
            await asyncio.to_thread(limits.open_socket, *self.seat, self.socket_id)
            heartbeat.start()
        except GameError as exc:
            self.seat = None
            await self.send_frame(frames.error(exc.code, exc.message))
            refused = (
                CloseCode.NO_SESSION if exc.code == "no_session" else CloseCode.TOO_MANY_SOCKETS
            )
            await self.close(code=refused)
            return False
        except Exception:  # the socket counts live in Redis, which does not answer
            logger.warning("race %s: socket limits unavailable; closing 4503", self.room)
            self.seat = None
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        return True

    async def disconnect(self, code):
        self.closed = True
        for task in (self.timer, self.idle):
            if task:
                task.cancel()
        if self.worker and not self.worker.done():
            while not self.inbox.empty():
                self.inbox.get_nowait()  # frames not begun are dropped with the socket
                self.gate.finished()
            self.inbox.put_nowait(None)
            await self.worker  # the frame in hand is finished: its broadcast must go out
        if self.seat is None:
            return  # refused before it joined anything
        shutdown.untrack(self)
        try:
            await asyncio.to_thread(limits.close_socket, *self.seat, self.socket_id)
            if self.subscribed:
                await fanout.leave(self.room, self)
            heartbeat.unwatch(self.socket_id)
            if self.entry_id is not None and not self.restarting:  # back elsewhere at once
                await self.call(actions.disconnect, self.entry_id, self.socket_id)
        finally:
            if self.gone is not None:
                self.gone.set()

    async def restart(self):
        """This process is stopping (`shutdown`): take no more frames, finish those begun
        (their moves committed and acknowledged), close with 1012 so the client comes
        back at once elsewhere (sending again what was left unanswered), and return
        once the socket is gone."""
        self.restarting = True
        metrics.restart_closes.inc()
        if self.worker and not self.worker.done():
            self.inbox.put_nowait(None)  # after the frames already queued
            await self.worker
        await self.close(code=CloseCode.RESTART)
        await self.gone.wait()

    async def close(self, code=None, reason=None):
        """A `CloseCode` goes out as the plain int autobahn insists on."""
        code = int(code) if isinstance(code, CloseCode) else code
        await super().close(code=code, reason=reason)

    async def subscribe(self):
        """Receive the race's frames; False when the channel layer (Redis) does not answer
        in time, so the client gets a clear close (4503, retry later)."""
        self.subscribed = await fanout.join(self.room, self)
        return self.subscribed

    async def __call__(self, scope, receive, send):
        """Frames are taken one after another from daphne's queue.

        channels waits on all of a consumer's sources with a new task and an
        `asyncio.wait` for every message (`await_many_dispatch`); a race socket has one
        source, the client (no channel layer: `fanout` calls `race_frame`)."""
        self.scope, self.channel_layer, self.base_send = scope, None, send
        with contextlib.suppress(StopConsumer):
            while True:
                await self.dispatch(await receive())

    async def dispatch(self, message):
        """Incoming frames skip channels' per-message database hop.

        Channels runs `close_old_connections` on the process's one database
        thread before every handler, so each frame would queue behind every
        move transaction of the process. This handler touches no database
        (the worker's `actions` calls clean up their own connections)."""
        if message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data=None, bytes_data=None):
        self.last_heard = time.monotonic()
        if self.gate.flooding():
            await self.send_frame(frames.error("rate_limited", "too many frames; closing"))
            await self.close(code=CloseCode.FLOOD)
            return
        try:
            message = protocol.parse(text_data)
        except GameError as exc:
            await self.send_frame(frames.error(exc.code, exc.message))
            return
        if isinstance(message, protocol.Ping):
            await self.send_frame(frames.pong())
        elif self.inbox is None or self.restarting:
            return  # unanswered: the client sends it again once reconnected
        elif self.gate.admit(self.inbox.qsize()) == admission.BUSY:
            seq = getattr(message, "seq", None)
            busy = frames.rejected(seq, "busy", BUSY) if seq else frames.error("busy", BUSY)
            await self.send_frame(busy)
        else:
            self.gate.started()
            self.inbox.put_nowait((message, time.monotonic()))

    async def work(self):
        while (item := await self.inbox.get()) is not None:
            message, self.received = item
            try:
                await self.handle(message)
            except Exception:  # a database hiccup must not end the socket's worker
                logger.exception("race %s: %s failed", self.room, type(message).__name__)
                await self.send_frame(frames.error("server_error", "try again or send sync"))
            finally:
                self.gate.finished()

    async def close_when_idle(self):
        """Close a socket that has sent nothing (not even a ping) for HALFMOON_IDLE_S."""
        while not self.closed:
            quiet = time.monotonic() - self.last_heard
            if quiet >= settings.HALFMOON_IDLE_S:
                await self.close(code=CloseCode.IDLE)
                return
            await asyncio.sleep(settings.HALFMOON_IDLE_S - quiet)

    async def handle(self, message):
        match message:
            case protocol.Join(name):
                out = await self.call(actions.join, name, self.socket_id)
                if out is not None:
                    self.mark_present(out.player)
                    await _run(_identify, self.scope["session"], name)
            case protocol.Start():
                await self.call(actions.start)
            case protocol.Move(seq, slots):
                await self.play(seq, Move.MOVE, slots) or await self.call(actions.move, seq, slots)
            case protocol.Undo(seq):
                await self.play(seq, Move.UNDO, ()) or await self.call(actions.undo, seq)
            case protocol.Resign():
                await self.call(actions.resign)
            case protocol.Sync():
                await self.read(arrival.sync(self.room, self.player_key)) or await self.call(
                    actions.sync
                )
            case protocol.Rematch():
                await self.call(actions.rematch)

    async def race_frame(self, message):
        """A broadcast of this race, from whichever process made it; one that comes
        before this socket's `state` (a process replaying the frames it kept, to its
        first socket of the race) is held until the state has gone."""
        if self.early is not None:
            self.early.append(message)
            return
        await self.forward(message)

    async def send_early(self):
        """The frames held until the state, in order (the client drops those it holds)."""
        while self.early:
            await self.forward(self.early.pop(0))
        self.early = None

    async def forward(self, message):
        """Send a broadcast on (but not the `progress` of this socket's own move: its
        `moved` said it already)."""
        kind = message["kind"]
        if kind == "progress" and message["event"] == self.moved_event:
            return
        await self.send_text(message["text"])
        if message["frame"] is not None:
            self.watch_clock(message["frame"])
        if kind == "started" and self.inbox is not None:
            self.gate.started()
            self.inbox.put_nowait((protocol.Sync(), time.monotonic()))  # dealt to players now

    async def play(self, seq, kind, slots):
        """A move the fast way (`moves`), answered and published; None if it cannot be."""
        out = await moves.play(self.room, self.entry_id, seq, kind, slots)
        if out is not None:
            await self.send_frame(out.reply[0])
            await broadcast.publish_outcome_async(self.room, out)
        return out

    async def read(self, reading):
        """A `state` read without the race lock (`arrival`), sent; None when it must be
        the careful way (something is due to change)."""
        out = await reading
        metrics.state_reads.labels("careful" if out is None else "read").inc()
        if out is not None:
            await self.send_outcome(out)
        return out

    async def call(self, action, *args):
        """Run one `actions` function; send its replies here and its broadcasts to the race.
        Returns the `Outcome`, or None when the race refused (an `error` was sent)."""
        try:
            out = await self.gate.run(_run, action, self.room, self.player_key, *args)
        except GameError as exc:
            await self.send_frame(frames.error(exc.code, exc.message))
            return None
        await self.send_outcome(out)
        return out

    async def send_outcome(self, out):
        """An `Outcome`'s replies to this socket, its broadcasts to the race."""
        for frame in out.reply:
            await self.send_frame(frame)
            self.watch_clock(frame)
        await broadcast.publish_outcome_async(self.room, out)

    def mark_present(self, entry_id):
        """This socket is a player's: the process's heartbeat keeps its mark alive."""
        if entry_id is not None:
            self.entry_id = entry_id
            heartbeat.watch(self.socket_id, self.room, entry_id)

    async def send_frame(self, frame):
        kind = frame["type"]
        if kind == "moved":
            self.moved_event, self.moved_seq = frame.get("event"), frame["seq"]
            metrics.moves_acknowledged.inc()
        elif kind in ("rejected", "error"):
            metrics.refused_frames.labels(kind, frame["code"]).inc()
        await self.send_text(frames.encoded(frame))
        if kind == "moved" and self.received is not None:  # sent: its opponents not yet told
            metrics.ack_seconds.observe(time.monotonic() - self.received)

    async def send_text(self, text):
        """Send, unless the socket is gone: a send racing a close is dropped, not raised."""
        if self.closed:
            return
        try:  # straight to the server: `send(text_data=)` adds two calls a frame
            await self.base_send({"type": "websocket.send", "text": text})
        except Exception:
            self.closed = True
            logger.info("race %s: a frame to a closed socket was dropped", self.room)

    def watch_clock(self, frame):
        """Wake up when the race's next deadline (countdown end, time limit) is due."""
        kind = frame["type"]
        if kind == "state":
            race = frame["race"]
            due = {"countdown": race["starts_at"], "running": race["ends_at"]}.get(race["status"])
        elif kind == "countdown":
            due = frame["starts_at"]
        elif kind == "started":
            due = frame["ends_at"]
        elif kind == "finished":
            due = None
        else:
            return
        if self.timer:
            self.timer.cancel()
        self.timer = asyncio.ensure_future(self.tick_at(due)) if due else None

    async def tick_at(self, due_ms):
        await asyncio.sleep(max(0.0, due_ms / 1000 - time.time()) + 0.02)
        self.timer = None
        # Shielded: once the change is committed, its broadcast must go out even if
        # this socket closes meanwhile; no other process would announce it.
        await asyncio.shield(self.tick())

    async def tick(self):
        try:
            out = await _run(actions.tick, self.room)
        except Exception:
            logger.exception("race %s: clock tick failed; the next frame applies it", self.room)
            return
        await broadcast.publish_outcome_async(self.room, out)
