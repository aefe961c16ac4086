"""
Outages a test can cause without touching the shared services: a TCP proxy that
stands between a server process and PostgreSQL and can be cut (every connection
dropped, new ones refused) and restored, and a private Redis on a free port that
can be stopped and started again. Other engineers' tests keep their database and
Redis throughout.

And players who keep moving through such a fault (`Racer`, `play_through`), and
what the database must hold afterwards (`stored_games`): the client side of the
fault tests, talking only the public protocol (docs/protocol.md).
"""

import asyncio
import contextlib
import json
import random
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

from channels.db import database_sync_to_async
from websockets.exceptions import WebSocketException

from game.engine import Deal, Game
from game.engine.examples import RULE_BOOK_DEAL
from game.engine.scheme import scheme
from game.testing.live import Player, database_url, free_port

ANSWER_S = 8
"""A move is answered well within this, even in an outage (DATABASE_WAIT_S is 2 s and
the channel layer's wait 2 s), or it hung: psycopg_pool's default wait alone was 30 s."""
PACE_S, RETRY_S = 0.1, 0.25
"""A racer's pause after an acknowledged move, and before sending a refused one again."""
WARM_UP_MOVES = 3
"""Acknowledged moves each racer makes before the fault."""
MOVE = ("seq", "kind", "slots")
"""A move as stored (`Move`) and as acknowledged (`moved`)."""


class TcpProxy:
    """127.0.0.1:<port> → target, one thread per direction; `cut()` is the target dying."""

    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self.port = free_port()
        self.links = set()
        self.lock = threading.Lock()
        self.listener = None
        self.restore()

    def restore(self):
        """Listen again (on the same port): the target is back."""
        self.listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def cut(self):
        """Drop every open connection and refuse new ones, like a stopped database."""
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.listener.close()
        with self.lock:
            links, self.links = self.links, set()
        for link in links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            link.close()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.links |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


class PrivateRedis:
    """A redis-server of our own on a free port, with no persistence."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        command = [self.binary, "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen([*command, "--daemonize", "no"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn,
            ):
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def database_url_via(port):
    """The DATABASE_URL of the test database, reached through 127.0.0.1:port (a proxy)."""
    from django.conf import settings

    return database_url({**settings.DATABASES["default"], "HOST": "127.0.0.1", "PORT": port})


class Racer:
    """
    A player who keeps moving, one move in flight, as the browser client does through a
    fault: legal moves picked by the engine on the game it keeps in step with its own
    `moved` frames; a move refused for now (`server_error`, `busy`) is sent again with
    the same `seq`, and so is a move whose socket dropped, once the client is back on
    any process — if the server had applied it, the retry is answered with the original
    `moved`. It keeps what it was told, for the test to hold the database to.
    """

    def __init__(self, player, player_id, servers, seed, deal=RULE_BOOK_DEAL):
        self.player, self.id, self.servers = player, player_id, servers
        self.deal = Deal.from_code(deal)
        self.game = Game(self.deal)
        self.random = random.Random(seed)
        self.pending = None
        """The move sent and not yet acknowledged."""
        self.acked = []
        """Every `moved` received, in order, each with when it was `sent` and when it came
        (`at`), the last sending of its move (monotonic)."""
        self.refusals = []
        """(sent at, answered at, code) of every move refused for now."""
        self.progress = []
        """When each opponent's `progress` came (monotonic)."""
        self.problems = []
        """Anything a player must never see: a hung move, an odd refusal, a wrong board."""
        self.reconnects = 0
        self.closes = []
        """The close code of every socket that dropped (None: no close frame came)."""
        self.outages = []
        """Seconds from each drop to the `state` of the socket that replaced it."""
        self.left = []
        """Every `player_left` this player heard: opponents who seemed to go."""

    def acked_since(self, instant):
        return [moved for moved in self.acked if moved["at"] > instant]

    def playing_since(self, instant):
        """Whether this player made a few moves since `instant` and saw an opponent's."""
        heard = any(at > instant for at in self.progress)
        return heard and len(self.acked_since(instant)) > WARM_UP_MOVES

    def refused_since(self, instant):
        """[(seconds after `instant` the refusal came, code)] of moves sent after it."""
        return [
            (round(at - instant, 2), code) for sent, at, code in self.refusals if sent > instant
        ]

    @property
    def seq(self):
        return self.acked[-1]["seq"] if self.acked else 0

    async def run(self, stop):
        """Move until `stop` is set and no move is left unacknowledged."""
        while self.pending or not stop.is_set():
            self.pending = self.pending or self._next_move()
            sent = time.monotonic()
            try:
                await self.player.ws.send(json.dumps(self.pending))
                answer = await self._answer(self.pending["seq"])
            except TimeoutError:
                self.problems.append(f"seq {self.pending['seq']}: no answer in {ANSWER_S} s")
                continue
            except (OSError, WebSocketException):  # the socket dropped: its process went away
                await self._reconnect()
                continue
            if answer["type"] == "moved":
                self._take(answer, sent)
                await asyncio.sleep(PACE_S)
            elif answer.get("code") in ("server_error", "busy"):
                self.refusals.append((sent, time.monotonic(), answer["code"]))
                await asyncio.sleep(RETRY_S)
            else:
                self.problems.append(f"seq {self.pending['seq']}: {answer}")
                return

    def _next_move(self):
        """A random legal move, or an undo when the game is blocked (never won on this
        deal by these seeds: random play blocks with dozens of cards left)."""
        moves = self.game.legal_moves()
        if moves:
            return {"type": "move", "seq": self.seq + 1, "slots": list(self.random.choice(moves))}
        return {"type": "undo", "seq": self.seq + 1}

    async def _answer(self, seq):
        """The answer to the move `seq`: its `moved` or `rejected`, or an `error`."""
        async with asyncio.timeout(ANSWER_S):
            while True:
                frame = json.loads(await self.player.ws.recv())
                kind = frame["type"]
                if kind in ("moved", "rejected") and frame["seq"] == seq or kind == "error":
                    return frame
                if kind == "progress":
                    self.progress.append(time.monotonic())
                elif kind == "player_left":
                    self.left.append(frame)

    def _take(self, moved, sent_at):
        """Apply an acknowledged move to the client's game; the server must agree."""
        sent = self.pending
        result = self.game.remove(sent["slots"]) if sent["type"] == "move" else self.game.undo()
        expected = {
            "kind": sent["type"],
            "slots": list(result.slots),
            "revealed": dict(zip(result.slots, result.revealed, strict=True)),
            "score": self.game.score,
        }
        if {key: moved[key] for key in expected} != expected:
            self.problems.append(f"seq {sent['seq']}: {moved}, the engine says {expected}")
        self.acked.append({**moved, "sent": sent_at, "at": time.monotonic()})
        self.pending = None

    async def _reconnect(self):
        """Back on the first process that takes the socket (its own first), with the
        browser client's backoff; its `state` must hold exactly this player's board."""
        self.reconnects += 1
        self.closes.append(self.player.ws.close_code)
        dropped = time.monotonic()
        delay = 0.5
        while True:
            for server in sorted(self.servers, key=lambda s: s is not self.player.server):
                again = Player(self.player.browser, server, self.player.room)
                try:
                    state = await again.open()
                except (OSError, TimeoutError, WebSocketException):
                    continue  # that process is down, or cannot serve sockets yet (4503)
                self.player = again
                self.outages.append(time.monotonic() - dropped)
                self._check_board(state["board"])
                return
            await asyncio.sleep(delay)
            delay = min(2 * delay, 4)

    def _check_board(self, board):
        """The board after the acknowledged moves, or after the move in flight too if the
        server applied it before the socket dropped."""
        played = [(moved["kind"], moved["slots"]) for moved in self.acked]
        if self.pending and board["seq"] == self.pending["seq"]:
            played.append((self.pending["type"], self.pending.get("slots")))
        elif board["seq"] != self.seq:
            self.problems.append(f"reconnected at seq {board['seq']}, acknowledged {self.seq}")
            return
        game = Game(self.deal)
        for kind, slots in played:
            game.remove(slots) if kind == "move" else game.undo()
        if board["slots"] != [view._asdict() for view in scheme(game)]:
            self.problems.append(f"reconnected at seq {board['seq']} to another board")
        if board["score"] != game.score:
            self.problems.append(f"reconnected with score {board['score']}, not {game.score}")


@contextlib.asynccontextmanager
async def moving(racers):
    """
    The racers playing in the background; yields `wait(condition, within_s, failure)`,
    which returns once `condition()` holds or fails with `failure()` after `within_s`
    (at once if a racer failed). On leaving, they stop once no move is in flight.
    """
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(racer.run(stop)) for racer in racers]

    async def wait(condition, within_s, failure):
        deadline = time.monotonic() + within_s
        while not condition():
            for task in tasks:
                if task.done():
                    task.result()
            if time.monotonic() > deadline:
                raise AssertionError(failure())
            await asyncio.sleep(0.05)

    try:
        yield wait
    finally:
        stop.set()
        done, _ = await asyncio.wait(tasks, timeout=2 * ANSWER_S)
        for task in tasks:
            task.cancel()
    for task in done:
        task.result()  # a racer's own failure


async def play_through(racers, fault, resume_s):
    """
    Racers moving through `fault` (a coroutine function that returns once the fault is
    over), which begins once each has a few acknowledged moves. Afterwards each must
    have a move acknowledged within `resume_s` of its end, then a few more, and have
    seen an opponent's move. Returns when the fault ended (monotonic), once every racer
    has stopped with no move in flight.
    """
    async with moving(racers) as wait:
        await wait(
            lambda: all(len(racer.acked) >= WARM_UP_MOVES for racer in racers),
            ANSWER_S,
            lambda: f"no {WARM_UP_MOVES} moves acknowledged before the fault",
        )
        await fault()
        ended = time.monotonic()
        await wait(
            lambda: all(racer.acked_since(ended) for racer in racers),
            resume_s,
            lambda: (
                f"no move acknowledged {resume_s} s after the fault; refused since: "
                + str({r.id: r.refused_since(ended) for r in racers if not r.acked_since(ended)})
            ),
        )
        await wait(
            lambda: all(racer.playing_since(ended) for racer in racers),
            ANSWER_S,
            lambda: "not every player made a few more moves and saw an opponent's",
        )
    return ended


def healthz(server):
    """(status, body) of /healthz, within ANSWER_S or the test fails."""
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=ANSWER_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def until_healthy(server, within_s=30):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if healthz(server)[0] == 200:
            return
        time.sleep(0.2)
    raise AssertionError(f"/healthz not 200 within {within_s} s of the service coming back")


def stored_games(racers):
    """For each racer: its entry's (seq, score, moves) and its stored moves in `seq`
    order as (seq, kind, slots), live or packed — what it was told, if nothing was lost
    or doubled."""
    from game.models import Entry
    from game.results import move_log

    games = []
    for racer in racers:
        entry = Entry.objects.get(pk=racer.id)
        rows = [tuple(getattr(row, field) for field in MOVE) for row in move_log.rows(entry)]
        games.append(((entry.seq, entry.score, entry.moves), rows))
    return games


def told(racer):
    """What a racer was told, in the shape of `stored_games`."""
    last = racer.acked[-1]
    moves = [tuple(moved[field] for field in MOVE) for moved in racer.acked]
    return (last["seq"], last["score"], last["moves"]), moves


async def assert_stored_as_told(racers):
    """Nothing odd seen, and the database holds exactly what the racers were told."""
    assert [racer.problems for racer in racers] == [[]] * len(racers)
    stored = await database_sync_to_async(stored_games)(racers)
    assert stored == [told(racer) for racer in racers]
