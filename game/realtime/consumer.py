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
no one sends anything. What every socket shares (admission, the seat in the
limits, the idle close, the close codes, the ping) is the `door`'s.
"""

import asyncio
import logging
import time

from channels.db import database_sync_to_async

from game.base import limits, metrics
from game.base.errors import CloseCode, GameError
from game.models import Move
from game.players import identity
from game.race import actions, arrival, frames, moves, protocol
from game.realtime import admission, broadcast, fanout, heartbeat
from game.realtime.door import Door
from game.realtime.inbox import Inbox

logger = logging.getLogger(__name__)
BUSY = "the server is busy: nothing was applied; try again in a moment"


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


class RaceConsumer(Door):
    """One race's socket, behind the `Door`. Its own frames are handled in order by a
    worker task, so that while one waits for the database the consumer still forwards
    the race's broadcasts at once (a consumer handles one message at a time, and a busy
    player would otherwise drain one opponent's progress per own move)."""

    frame_types = protocol.RACE_FRAMES
    inbox = worker = timer = entry_id = moved_event = moved_seq = early = None
    received = None
    """When the frame being handled arrived (`work`): a `moved` is timed from it."""
    present = subscribed = restarting = False

    async def connect(self):
        self.room = self.scope["url_route"]["kwargs"]["room"]
        await super().connect()

    async def seat_key(self):
        """The socket's player (a socket is never anybody new: `_identify`) and seat."""
        session = self.scope["session"]
        self.player_key = await arrival.player_key(session.session_key) or await _run(
            _identify, session
        )
        return session.session_key, limits.scope_address(self.scope)

    async def enter(self):
        """Subscribe to the race and take the player's place in it (4503 when the channel
        layer does not answer, 4404 for no such race); then the worker takes frames."""
        self.gate = admission.Gate(self.player_key, self.seat[1])
        self.early = []
        if not await self.subscribe():
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        out = await self.read(arrival.connect(self.room, self.player_key, self.socket_id))
        out = out or await self.call(actions.connect, self.socket_id)
        self.present = out is not None
        if not self.present:
            await self.close(code=CloseCode.NO_SUCH_RACE)
            return False
        self.mark_present(out.player)
        self.inbox = Inbox()
        self.worker = asyncio.ensure_future(self.work())
        return True

    async def entered(self):
        await self.send_early()

    async def finish(self):
        """Frames not begun are dropped with the socket; the one in hand is finished, since
        its broadcast must go out."""
        if self.timer:
            self.timer.cancel()
        if self.worker and not self.worker.done():
            while not self.inbox.empty():
                self.inbox.get_nowait()
                self.gate.finished()
            self.inbox.put_nowait(None)
            await self.worker

    async def leave(self):
        if self.subscribed:
            await fanout.leave(self.room, self)
        heartbeat.unwatch(self.socket_id)
        if self.entry_id is not None and not self.restarting:  # back elsewhere at once
            await self.call(actions.disconnect, self.entry_id, self.socket_id)

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
        await super().restart()

    async def subscribe(self):
        """Receive the race's frames; False when the channel layer (Redis) does not answer
        in time, so the client gets a clear close (4503, retry later)."""
        self.subscribed = await fanout.join(self.room, self)
        return self.subscribed

    def flooding(self):
        return self.gate.flooding()

    async def take(self, message):
        """Into the worker's inbox, or `busy` past the socket's or the process's share."""
        if self.inbox is None or self.restarting:
            return  # unanswered: the client sends it again once reconnected
        if self.gate.admit(self.inbox.qsize()) == admission.BUSY:
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
        if not self.race_frame_now(message):
            await self.forward(message)

    def race_frame_now(self, message):
        """`race_frame` at once where it can be: a frame held, not needed, or sent at
        once as it changes nothing here (a move's `progress`, ...); False otherwise."""
        if self.early is not None:
            self.early.append(message)
            return True
        if self.told_already(message):
            return True
        return message["frame"] is None and self.send_text_now(message["text"])

    def told_already(self, message):
        """The `progress` of this socket's own move: its `moved` said it already."""
        return message["kind"] == "progress" and message["event"] == self.moved_event

    async def send_early(self):
        """The frames held until the state, in order (the client drops those it holds)."""
        while self.early:
            await self.forward(self.early.pop(0))
        self.early = None

    async def forward(self, message):
        """Send a broadcast on, unless this socket was `told_already`."""
        kind = message["kind"]
        if self.told_already(message):
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
        await super().send_frame(frame)
        if kind == "moved" and self.received is not None:  # sent: its opponents not yet told
            metrics.ack_seconds.observe(time.monotonic() - self.received)

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
