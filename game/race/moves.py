"""
The common move, decided on the event loop and stored by one SQL statement.

Nearly every frame of a race is a legal move on a game this process already
holds in memory (`games.cache`). Running it through `actions` costs a trip to
the process's one database thread and seven ORM statements under the race
lock. Here it is one row of one statement on an async connection: lock the race
row if the race is running and its time has not run out, update the entry if its
`seq` is still the one this game was at and its game is not over, insert the
`Move`, bump the race's `event` — all or nothing, committed before `moved` is
sent. It takes the same race lock as `actions` (race row first, then entry),
held only until its batch commits, so a move and any other change to the
race (a time-out, a finish) happen one after the other.

The moves of a process are committed together (`Writer`): the moves that arrive
while a transaction commits go in the next one, all stored by ONE statement (its
one parameter the batch as JSON: one round trip, one transaction), so a busy
process pays one commit, and little more client work than one move's, for many.
Each is acknowledged only after the commit that holds it; a batch that fails
acknowledges none.

Anything else — a cold cache, a move another process made first, an illegal
move, a move that ends the game (which may finish the race), a ghost race's split
whose ghost this process has not read (game/race/splits.py), SQLite — returns
None, and the caller goes the careful way (`actions.move`/`actions.undo`).
"""

import asyncio
import threading
import time
import weakref
import zlib
from types import SimpleNamespace

import orjson
import psycopg
from django.conf import settings
from django.utils import timezone
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool

from game.base import metrics
from game.engine import IllegalMove
from game.engine.game import UNDO_LIMIT
from game.models import Entry, Move
from game.race import frames, splits
from game.race.actions import Outcome
from game.results import games

DONE = "{" + ",".join(Entry.DONE) + "}"
"""`Entry.DONE` as an SQL array literal, written into the statement once."""


def numbered_events(moves, race, races):
    """The end of a batch statement (SQL): the races of the moves in CTE `moves` (each
    with its place `n` in the batch, from 1, and its race in column `race`) have their
    `event` in table `races` bumped once by their number of moves, and each move gets
    its own number, in batch order: the statement's rows are (n, event). The races
    are found by their key (`= ANY`): joined to `moves` alone, whose size the planner
    cannot know, a table of races would be scanned in full on every commit."""
    return f""", per_race AS (
    SELECT {race} AS race, count(*) AS moves, array_agg(n ORDER BY n) AS ns
    FROM {moves} GROUP BY {race}
), bumped AS (
    UPDATE {races} SET event = event + per_race.moves FROM per_race
    WHERE {races}.id = per_race.race AND {races}.id = ANY(ARRAY(SELECT race FROM per_race))
    RETURNING {races}.event - per_race.moves AS before, per_race.ns
)
SELECT numbered.n, bumped.before + numbered.k
FROM bumped, unnest(bumped.ns) WITH ORDINALITY AS numbered (n, k)
"""


STATEMENT = f"""
WITH batch AS MATERIALIZED (
    SELECT * FROM ROWS FROM (json_to_recordset(%s::json) AS (
        room text, entry bigint, seq integer, kind text, slots json, score integer,
        moves integer, cards_left integer, status text, heights json, now timestamptz
    )) WITH ORDINALITY AS batch (room, entry, seq, kind, slots, score, moves, cards_left,
        status, heights, now, n)
), races AS MATERIALIZED (
    SELECT id, room, status, started_at, time_limit_s FROM game_race
    WHERE room = ANY(ARRAY(SELECT room FROM batch)) ORDER BY room COLLATE "C" FOR UPDATE
), updated AS (
    UPDATE game_entry SET seq = batch.seq, score = batch.score, moves = batch.moves,
        cards_left = batch.cards_left, status = batch.status, heights = batch.heights::jsonb,
        undos = game_entry.undos + (batch.kind = 'undo')::integer, last_move_at = batch.now
    FROM batch JOIN races race ON race.room = batch.room
    WHERE game_entry.id = batch.entry AND game_entry.race_id = race.id
      AND game_entry.seq = batch.seq - 1 AND game_entry.status <> ALL('{DONE}')
      AND race.status = 'running' AND (race.time_limit_s IS NULL
           OR batch.now < race.started_at + make_interval(secs => race.time_limit_s))
    RETURNING batch.n, batch.entry, race.id AS race, batch.seq, batch.kind, batch.slots,
        batch.now
), inserted AS (
    INSERT INTO game_move (entry_id, seq, kind, slots, at)
    SELECT entry, seq, kind, slots::jsonb, now FROM updated
)""" + numbered_events("updated", "race", "game_race")
"""A batch of moves in one statement, its one parameter the moves as a JSON array in
batch order (`_params`), at most one move an entry (`Lane.take`): each stored or not as
its own guarded statement would be. `races`: the batch's races, found by their unique
room (never by status: the planner would scan every running race) and locked in the
order of their rooms, as every process's batches lock them (two that share races wait
for each other instead of deadlocking), race before entry as `actions` locks.
`updated`: the entries whose race is running and in time at the move's `now`, not done
and at the `seq` before the move's — checked on each row as locked, whatever committed
since the statement began; their moves inserted and numbered. Each step passes on what
the next needs (`RETURNING`; arrays where a row stands for many) rather than joining
two earlier steps' rows, whose counts the planner cannot guess."""

BATCH = 200
"""The most moves one transaction commits."""


def _json(batch):
    """A batch as the statement's JSON parameter (orjson: a tenth of `json`'s time)."""
    return orjson.dumps(batch).decode()


_pools = weakref.WeakKeyDictionary()
_lane_connections = weakref.WeakKeyDictionary()
_loops_lock = threading.Lock()
_writers = weakref.WeakKeyDictionary()


def enabled():
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


READERS = 2
"""Connections of a process's read pool (`pool()`: a socket's arrival,
game/race/arrival.py), apart from the writers' (`LaneConnection`) so that a crowd
arriving at once never holds a move's commit back."""


def _connection_kwargs():
    """How the move path connects: to Django's database, autocommit, libpq's connect
    bounded by `DATABASE_WAIT_S`."""
    db = settings.DATABASES["default"]
    return {
        "dbname": db["NAME"],
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "autocommit": True,
        "connect_timeout": max(1, round(settings.DATABASE_WAIT_S)),
    }


def pool():
    """This event loop's pool of `READERS` autocommit connections (daphne runs one loop)."""
    loop = asyncio.get_running_loop()
    with _loops_lock:
        if loop not in _pools:
            _pools[loop] = AsyncConnectionPool(
                conninfo="",
                kwargs=_connection_kwargs(),
                min_size=1,
                max_size=READERS,
                timeout=settings.DATABASE_WAIT_S,
                open=False,
            )
        return _pools[loop]


async def fetch(statement, params):
    """The rows of one autocommit `statement` on this loop's read pool, bounded in
    time (`DATABASE_WAIT_S`); a connection an outage broke is dropped with the others."""
    connections = pool()
    if connections.closed:
        await connections.open()
    try:
        async with asyncio.timeout(settings.DATABASE_WAIT_S), connections.connection() as each:
            return await (await each.execute(statement, params)).fetchall()
    except psycopg.OperationalError:  # an outage broke it: drop the broken ones
        await connections.check()
        raise


async def close_pool():
    """Close this event loop's read pool and its lanes' connections (a test's loop ends
    with its test)."""
    loop = asyncio.get_running_loop()
    with _loops_lock:
        readers = _pools.pop(loop, None)
        lanes = _lane_connections.pop(loop, set())
    if readers is not None:
        await readers.close()
    for lane in lanes:
        await lane.close()


async def play(room, entry_id, seq, kind, slots):
    """The `Outcome` of a move or undo done the fast way, or None to go the careful way."""
    if not enabled() or entry_id is None:
        return None
    game = games.cache.take_current(entry_id, seq - 1)
    if game is None:
        return None
    if game.status not in (Entry.PLAYING, Entry.BLOCKED):
        games.cache.put(entry_id, seq - 1, game)
        return None
    try:
        result = game.remove(slots) if kind == Move.MOVE else game.undo()
    except IllegalMove:
        games.cache.put(entry_id, seq - 1, game)  # unchanged: the careful way says why
        return None
    pace = splits.paces.get(entry_id) if kind == Move.MOVE else splits.NO_GHOST
    if game.status == Entry.WON or (pace is splits.UNKNOWN and splits.makes_split(game.moves)):
        # the race may finish, or a split needs the ghost's times: the careful way decides
        _take_back(entry_id, seq, kind, game, result)
        return None
    entry = _entry_after(entry_id, game)
    now = timezone.now()
    params = _params(room, entry, seq, kind, list(result.slots), now)
    try:
        event = await _writer().store(room, params)
    except Exception:
        _take_back(entry_id, seq, kind, game, result)
        raise
    if event is None:
        return None
    games.cache.put(entry_id, seq, game)
    progress = frames.progress(entry, seq, kind, list(result.slots))
    progress["event"] = event
    split = splits.live(pace, game.moves, now)  # the time the row stores
    moved = frames.moved(seq, kind, result, game, entry, event, split)
    return Outcome(reply=[moved], broadcast=[progress])


def _entry_after(entry_id, game):
    """The entry's stored numbers once this move is stored (as the statement sets them)."""
    return SimpleNamespace(
        pk=entry_id,
        score=game.score,
        moves=game.moves,
        cards_left=game.cards_left,
        status=game.status,
        heights=games.heights(game),
        finished_at=None,
        done=False,
    )


def _take_back(entry_id, seq, kind, game, result):
    """Nothing was stored (the statement failed, or the move is left to the careful
    way): the game goes back to the cache as it was, so the player's next frame is
    answered as fast as this one. A game whose undo history was full is not exactly
    restorable: it is dropped, and rebuilt from the database when next needed."""
    if kind == Move.MOVE:
        if game.undoable >= UNDO_LIMIT:
            return
        game.undo()
    else:
        game.remove(result.slots)
    games.cache.put(entry_id, seq - 1, game)


def _params(room, entry, seq, kind, slots, now):
    """A move as `STATEMENT` reads it, a JSON object."""
    return {
        "room": room,
        "entry": entry.pk,
        "seq": seq,
        "kind": kind,
        "slots": slots,
        "score": entry.score,
        "moves": entry.moves,
        "cards_left": entry.cards_left,
        "status": entry.status,
        "heights": entry.heights,
        "now": now.isoformat(),
    }


def _writer():
    loop = asyncio.get_running_loop()
    writer = _writers.get(loop)
    if writer is None:
        writer = _writers[loop] = Writer(settings.HALFMOON_MOVE_CONNECTIONS)
    return writer


class Writer:
    """This event loop's committer: one lane per connection, each race always in the same
    lane (by its room). A lane runs one transaction at a time, holding every move of its
    races that waited for it (group commit): a quiet process commits each move at once,
    a busy one many per transaction. Lanes never share a race, so their transactions run
    side by side without waiting for each other's locks, and a race's moves are
    committed, and so numbered and published, in the order they came."""

    def __init__(self, lanes, commit=None):
        """`commit(batch)`: the events of a batch's moves, committed together (here
        each lane's on a `LaneConnection` of its own; bench/ceiling.py gives its own
        statement's)."""
        self.lanes = [Lane(commit or LaneConnection().commit) for _ in range(lanes)]

    async def store(self, room, params):
        """The race's new `event` once this move (`params`, with its "entry") is
        committed; None when the statement changed nothing (another process moved
        first, the game or time is over)."""
        lane = self.lanes[zlib.crc32(room.encode()) % len(self.lanes)]
        return await lane.store(room, params)


class Lane:
    def __init__(self, commit):
        self.commit = commit
        self.waiting = []
        self.task = None

    async def store(self, room, params):
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((room, params, done))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())
        return await done

    async def run(self):
        while self.waiting:
            batch = self.take()
            metrics.commit_batch_moves.observe(len(batch))
            began = time.perf_counter()
            try:
                events = await self.commit([params for _, params, _ in batch])
            except Exception as exc:
                metrics.commit_failures.inc()
                for *_, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            finally:
                metrics.commit_seconds.observe(time.perf_counter() - began)
            for (*_, done), event in zip(batch, events, strict=True):
                if not done.done():
                    done.set_result(event)

    def take(self):
        """The next transaction's moves: those waiting, in the order they came, up to
        `BATCH` and up to the first of an entry already taken. That one goes first in
        the next transaction, guarded by the `seq` the move before it left: `STATEMENT`
        stores at most one move an entry, each as its own statement after the one
        before would."""
        size, entries = 0, set()
        for _, params, _ in self.waiting[:BATCH]:
            if params["entry"] in entries:
                break
            entries.add(params["entry"])
            size += 1
        batch, self.waiting = self.waiting[:size], self.waiting[size:]
        # In the order `STATEMENT` locks their races, by room, as on every process (two
        # processes' batches that share races, a race split over both, wait for each
        # other instead of deadlocking). Stable: a race's moves keep the order they
        # came in, which numbers their events.
        batch.sort(key=lambda waiting: waiting[0])
        return batch


RECONNECT_S = 0.25
"""The pause before a lane tries again a connection the database refused."""


class LaneConnection:
    """A lane's own autocommit connection, and its commit: a lane runs one transaction
    at a time, so it holds one connection instead of taking one from a pool and giving
    it back on every commit (a sixth of a commit's client CPU, most commits holding one
    move: docs/performance.md, "Issue #34, the group commit's own connections"). Opened
    on the first commit, kept open, dropped when an outage broke it or a commit left it
    mid-statement, opened again by the next commit; closed with the loop's read pool
    (`close_pool`)."""

    def __init__(self):
        self.connection = None

    async def commit(self, batch):
        """Store the moves of `batch` in one statement (one transaction); their events
        in order.

        A connection that an outage broke fails at once: it is dropped, and the batch
        is tried once more on a new one, which is safe as every statement is guarded
        by its `seq`. Bounded in time: a database that does not answer fails the batch
        (its moves get `server_error`, none is acknowledged) instead of holding every
        move behind it."""
        try:
            return await self._commit_once(batch)
        except TimeoutError:
            raise
        except psycopg.OperationalError:
            return await self._commit_once(batch)

    async def _commit_once(self, batch):
        async with asyncio.timeout(2 * settings.DATABASE_WAIT_S):
            asked = time.perf_counter()
            connection = self.connection or await self._open()
            metrics.pool_wait_seconds.observe(time.perf_counter() - asked)
            try:
                return await execute_batch(connection, STATEMENT, batch)
            except BaseException:
                await self._drop_unless_idle()
                raise

    async def _open(self):
        """A new connection, tried again every `RECONNECT_S` while the database refuses
        it, for at most `DATABASE_WAIT_S` (then TimeoutError: the batch fails)."""
        with _loops_lock:
            _lane_connections.setdefault(asyncio.get_running_loop(), set()).add(self)
        async with asyncio.timeout(settings.DATABASE_WAIT_S):
            while True:
                try:
                    self.connection = await psycopg.AsyncConnection.connect(**_connection_kwargs())
                    return self.connection
                except psycopg.OperationalError:
                    await asyncio.sleep(RECONNECT_S)

    async def _drop_unless_idle(self):
        """After a failed statement: keep the connection if it is idle and sound (a
        statement's own error, as a pool would), else drop it (broken, or cut off
        mid-statement by the time bound)."""
        connection = self.connection
        if connection is not None and (
            connection.closed or connection.info.transaction_status != TransactionStatus.IDLE
        ):
            await self.close()

    async def close(self):
        connection, self.connection = self.connection, None
        if connection is not None:
            await connection.close()


async def execute_batch(connection, statement, batch):
    """`statement` once for the whole `batch`, its one parameter the batch as a JSON
    array, on an autocommit `connection`: one statement, so one transaction and one
    round trip (prepared after a few). The statement's rows are (n, event), n the
    move's place in the batch from 1; the events in batch order, None for a move
    the statement did not store."""
    cursor = await connection.execute(statement, (_json(batch),))
    events = [None] * len(batch)
    for n, event in await cursor.fetchall():
        events[n - 1] = event
    return events
