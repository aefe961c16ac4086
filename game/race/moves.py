"""
The common move, decided on the event loop and stored by one SQL statement.

Nearly every frame of a race is a legal move on a game this process already
holds in memory (`games.cache`). Running it through `actions` costs a trip to
the process's one database thread and seven ORM statements under the race
lock. Here it costs one statement on an async connection: lock the race row
if the race is running and its time has not run out, update the entry if its
`seq` is still the one this game was at and its game is not over, insert the
`Move`, bump the race's `event` — all or nothing, committed before `moved` is
sent. It takes the same race lock as `actions` (race row first, then entry),
held only until its batch commits, so a move and any other change to the
race (a time-out, a finish) happen one after the other.

The statements of a process are committed together (`Writer`): the moves that
arrive while a transaction commits go in the next one, pipelined, so a busy
process pays one commit for many moves. Each is acknowledged only after the
commit that holds it; a batch that fails acknowledges none.

Anything else — a cold cache, a move another process made first, an illegal
move, a move that ends the game (which may finish the race), a ghost race's split
whose ghost this process has not read (game/race/splits.py), SQLite — returns
None, and the caller goes the careful way (`actions.move`/`actions.undo`).
"""

import asyncio
import contextlib
import threading
import time
import weakref
import zlib
from types import SimpleNamespace

import psycopg
from django.conf import settings
from django.utils import timezone
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from game.base import metrics
from game.engine import IllegalMove
from game.engine.game import UNDO_LIMIT
from game.models import Entry, Move
from game.race import frames, games, splits
from game.race.actions import Outcome

STATEMENT = """
WITH r AS (
    SELECT id FROM game_race
    WHERE id = (SELECT race_id FROM game_entry WHERE id = %(entry)s) AND status = 'running'
      AND (time_limit_s IS NULL OR %(now)s < started_at + make_interval(secs => time_limit_s))
    FOR UPDATE
), e AS (
    UPDATE game_entry SET seq = %(seq)s, score = %(score)s, moves = %(moves)s,
        cards_left = %(cards_left)s, status = %(status)s, heights = %(heights)s,
        undos = undos + %(undo)s, last_move_at = %(now)s
    WHERE id = %(entry)s AND seq = %(previous)s AND status <> ALL(%(done)s)
      AND race_id = (SELECT id FROM r)
    RETURNING id, race_id
), m AS (
    INSERT INTO game_move (entry_id, seq, kind, slots, at)
    SELECT id, %(seq)s, %(kind)s, %(slots)s, %(now)s FROM e
    RETURNING entry_id
)
UPDATE game_race SET event = event + 1
WHERE id = (SELECT race_id FROM e) AND EXISTS (SELECT 1 FROM m)
RETURNING event
"""
"""Locks the race row first, as `actions` does (race, then entry): a batch and a careful
action never wait for each other in a circle."""

BATCH = 200
"""The most moves one transaction commits."""
_pools = weakref.WeakKeyDictionary()
_pools_lock = threading.Lock()
_writers = weakref.WeakKeyDictionary()


def enabled():
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


READERS = 2
"""Connections of a process's read pool (`pool(READ)`: a socket's arrival,
game/race/arrival.py), apart from the writers' so that a crowd arriving at once never
holds a move's commit back."""
WRITE, READ = "write", "read"


def pool(kind=WRITE):
    """This event loop's pool of autocommit connections of `kind` (daphne runs one loop):
    the writers' (`HALFMOON_MOVE_CONNECTIONS`, one a lane) or the readers' (`READERS`)."""
    loop = asyncio.get_running_loop()
    with _pools_lock:
        pools = _pools.setdefault(loop, {})
        if kind not in pools:
            db = settings.DATABASES["default"]
            pools[kind] = AsyncConnectionPool(
                conninfo="",
                kwargs={
                    "dbname": db["NAME"],
                    "user": db.get("USER") or None,
                    "password": db.get("PASSWORD") or None,
                    "host": db.get("HOST") or None,
                    "port": db.get("PORT") or None,
                    "autocommit": True,
                    "connect_timeout": max(1, round(settings.DATABASE_WAIT_S)),
                },
                min_size=1,
                max_size=settings.HALFMOON_MOVE_CONNECTIONS if kind == WRITE else READERS,
                timeout=settings.DATABASE_WAIT_S,
                open=False,
            )
    return pools[kind]


async def close_pool():
    """Close this event loop's pools (a test's loop ends with its test)."""
    with _pools_lock:
        pools = _pools.pop(asyncio.get_running_loop(), {})
    for each in pools.values():
        await each.close()


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
    params = _params(entry, seq, kind, list(result.slots))
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
    split = splits.live(pace, game.moves, params["now"])  # the time the row stores
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
        if len(game.history) >= UNDO_LIMIT:
            return
        game.undo()
    else:
        game.remove(result.slots)
    games.cache.put(entry_id, seq - 1, game)


def _params(entry, seq, kind, slots):
    return {
        "entry": entry.pk,
        "seq": seq,
        "previous": seq - 1,
        "score": entry.score,
        "moves": entry.moves,
        "cards_left": entry.cards_left,
        "status": entry.status,
        "heights": Jsonb(entry.heights),
        "now": timezone.now(),
        "done": list(Entry.DONE),
        "kind": kind,
        "undo": int(kind == Move.UNDO),
        "slots": Jsonb(slots),
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
        """`commit(batch)`: the events of a batch's statements, committed together
        (`_commit` here; bench/ceiling.py gives its own statement's)."""
        self.lanes = [Lane(commit or _commit) for _ in range(lanes)]

    async def store(self, room, params):
        """The race's new `event` once this move is committed; None when the statement
        changed nothing (another process moved first, the game or time is over)."""
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
            batch, self.waiting = self.waiting[:BATCH], self.waiting[BATCH:]
            # Races locked in the order of their rooms, on every process: two processes'
            # batches that share races (a race split over both) wait for each other
            # instead of deadlocking. Stable: a race's moves stay in the order they came.
            batch.sort(key=lambda waiting: waiting[0])
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


async def _commit(batch):
    """Run the statements of `batch` in one transaction, pipelined; their events in order.

    A connection that an outage broke (the pool does not check them on the way out)
    fails at once: the pool then drops every broken one, and the batch is tried once
    more, which is safe as every statement is guarded by its `seq`. Bounded in time:
    a database that does not answer fails the batch (its moves get `server_error`,
    none is acknowledged) instead of holding every move behind it."""
    try:
        return await _commit_once(batch)
    except (PoolTimeout, TimeoutError):
        raise
    except psycopg.OperationalError:
        await pool().check()
        return await _commit_once(batch)


async def _commit_once(batch):
    writers = pool()
    if writers.closed:
        await writers.open()
    async with asyncio.timeout(2 * settings.DATABASE_WAIT_S):
        asked = time.perf_counter()
        async with writers.connection() as connection:
            metrics.pool_wait_seconds.observe(time.perf_counter() - asked)
            return await execute_batch(connection, STATEMENT, batch)


async def execute_batch(connection, statement, batch):
    """`statement` once for each parameters of `batch` on an autocommit `connection`,
    all committed together; the first column of each one's row (None: no row)."""
    if len(batch) == 1:  # autocommit: the statement is its own transaction
        row = await (await connection.execute(statement, batch[0])).fetchone()
        return [row[0] if row else None]
    # One round trip: BEGIN, the statements and COMMIT sent together, their results read
    # after. (`executemany(returning=True)` in a `transaction()` read the statements'
    # results before it sent the COMMIT: the races stayed locked for a round trip and
    # the event loop's turn, which another process's batch of the same races, a race
    # split over both, waited out.) A cursor each: in a pipeline `execute` only queues.
    cursors = [connection.cursor() for _ in batch]
    try:
        async with connection.pipeline():
            await connection.execute("BEGIN")
            for cursor, params in zip(cursors, batch, strict=True):
                await cursor.execute(statement, params)
            await connection.execute("COMMIT")
    except Exception:
        if not connection.broken:  # a failed statement leaves the transaction aborted
            with contextlib.suppress(Exception):
                await connection.rollback()
        raise
    rows = [await cursor.fetchone() for cursor in cursors]
    return [row[0] if row else None for row in rows]
