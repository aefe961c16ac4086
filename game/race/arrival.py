"""
A socket's arrival, the common way: who it is and its `state` read on the event loop,
not in a locked transaction on the process's one database thread.

`actions.connect` locks the race, applies the clock and attendance, and reads the race,
its entries and the player's game through the ORM: about ten statements and three
hops to the one database thread, which take the arrivals of a replica's players one at
a time when the other replica restarts (600 players: reconnects p50 4.6 s, p99 17 s).
Nearly every arrival changes nothing, though: the player's mark is refreshed, no one's
attendance, countdown or time limit is due, and the `state` is a read. Here the session
and the race (with its deal and entries) are one statement each on the read pool's
async connections (`moves.pool`), shared by every arrival waiting (`Lookup`); the
player's game comes from the cache or its stored moves; the marks go to Redis off the
loop.
A snapshot read without the race lock is consistent (one statement sees one moment),
and the socket subscribed before it, so it misses no broadcast made after it.

One change is made here too: a game played alone, which its player's first socket
starts — every newcomer's daily attempt at the reset, whose careful way took a quarter
of the rush's profile, one socket at a time (docs/performance.md "The rush"). Once the
socket is marked present, `alone_start` starts it in one guarded statement on the same
pool and answers with the careful way's frames.

Anything else that would change the race — a player to announce back or gone, a
countdown or a time limit due, a game played alone that `alone_start` leaves (a second
tab that lost the start, a deal blocked from its first cards) — and what this does not
read — a finished race (its standings), a ghost race, SQLite, any failure — returns
None, and the caller goes the careful way (`actions.connect`).
"""

import asyncio
import collections
import itertools
import logging
import weakref
from importlib import import_module

from django.conf import settings
from django.utils import timezone

from game.base import presence
from game.models import Deal, Entry, Race
from game.players import identity
from game.race import alone_start, attendance, frames, moves
from game.race.actions import Outcome
from game.results import games, move_log

logger = logging.getLogger(__name__)
_DB_SESSIONS = "django.contrib.sessions.backends.db"


def _columns(alias, model):
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def _attnames(model):
    return [field.attname for field in model._meta.concrete_fields]


RACE_ROWS = f"""
SELECT r.room, {_columns("r", Race)}, {_columns("d", Deal)}, {_columns("e", Entry)}
FROM game_race r JOIN game_deal d ON d.id = r.deal_id LEFT JOIN game_entry e ON e.race_id = r.id
WHERE r.room = ANY(%s) ORDER BY r.room, e.id
"""
"""Each race asked for, its deal and its entries: one row per entry (one row with no
entry's columns for a race nobody joined), after the room."""
LOG = """
SELECT k.entry, k.upto, m.kind, m.slots
FROM unnest(%s::bigint[], %s::integer[]) AS k(entry, upto)
JOIN game_move m ON m.entry_id = k.entry AND m.seq <= k.upto
ORDER BY k.entry, m.seq
"""
"""Each entry's stored moves up to a `seq`, after the (entry, seq) asked for."""
SESSION = """
SELECT session_key, session_data FROM django_session
WHERE session_key = ANY(%s) AND expire_date > now()
"""
BATCH = 200
"""The most keys one statement reads."""


def enabled():
    return moves.enabled() and settings.SESSION_ENGINE == _DB_SESSIONS


async def player_key(session_key):
    """The player key stored in the session `session_key`, or None (no such session, no
    key in it, a failure): the caller asks the careful way, which says why."""
    if not enabled() or not session_key:
        return None
    try:
        rows = await _lookups().session.rows(session_key)
    except Exception:
        logger.warning("session %s…: not read the fast way", session_key[:6], exc_info=True)
        return None
    if not rows:
        return None
    data = import_module(settings.SESSION_ENGINE).SessionStore().decode(rows[0][0])
    return identity.stored_key(data)


async def connect(room, player_key, socket):
    """The `Outcome` of `actions.connect` when it would change nothing but the presence
    mark of `socket` (None: no mark, a `sync`) or start a game played alone
    (`alone_start`), or None to go the careful way."""
    if not enabled():
        return None
    try:
        return await _connect(room, player_key, socket)
    except Exception:
        logger.warning("race %s: state not read the fast way", room, exc_info=True)
        return None


async def sync(room, player_key):
    """The `Outcome` of `actions.sync` when it would change nothing, or None."""
    return await connect(room, player_key, None)


async def _connect(room, player_key, socket):
    race, entries = _models(await _lookups().race.rows(room))
    now = timezone.now()  # after the read, which may wait in a crowd: the state's clock
    if race is None:
        return None
    entry = next((e for e in entries if player_key and e.player_key == player_key), None)
    starts = socket is not None and alone_start.startable(race, entries, entry)
    if not starts and not _quiet(race, now):
        return None
    until = await asyncio.to_thread(_marks, room, entry, socket)
    review = attendance.review(race, entries, until, now)
    if starts:
        return await alone_start.start(race, entry, review, now)
    if review.changes or review.new_host is not None:
        return None
    game = None
    if entry is not None and race.status == Race.RUNNING:
        game = await _game(entry, race.deal)
    state = frames.snapshot(race, entries, entry, game, player_key, now)
    return Outcome(reply=[state], player=entry.pk if entry else None)


def _quiet(race, now):
    """Whether the clock has nothing due and the state needs nothing more than is read."""
    if race.status == Race.FINISHED or race.ghost_of_id is not None or race.rematch_id:
        return False
    if race.mode in Race.ALONE and race.status == Race.LOBBY:
        return False  # connecting starts it: alone_start, or the careful way
    if race.status == Race.COUNTDOWN and now >= race.starts_at:
        return False
    return race.ends_at is None or now < race.ends_at


def _models(rows):
    """(Race with its deal, [Entry]) from RACE_ROWS, or (None, []) for no such race."""
    if not rows:
        return None, []
    race_fields, deal_fields, entry_fields = _attnames(Race), _attnames(Deal), _attnames(Entry)
    first, deal_end = rows[0], len(race_fields) + len(deal_fields)
    race = Race.from_db("default", race_fields, first[: len(race_fields)])
    race.deal = Deal.from_db("default", deal_fields, first[len(race_fields) : deal_end])
    entries = []
    for row in rows:
        if row[deal_end] is not None:  # the entry's id: None when nobody joined
            entry = Entry.from_db("default", entry_fields, row[deal_end:])
            entry.race = race
            entries.append(entry)
    return race, entries


def _marks(room, entry, socket):
    """The socket's presence mark (a player's), then every mark of the room."""
    if entry is not None and socket is not None:
        presence.refresh([(room, entry.pk, socket)])
    return presence.present_until([room])[0]


async def _game(entry, deal):
    """The player's game at the entry's `seq`: the cached one, else replayed from its
    stored moves (and cached): its packed ones, read with the entry, once it is over
    (a race runs on after one player's win)."""
    game = games.cache.peek(entry.pk, entry.seq)
    if game is None:
        if entry.packed_moves is not None:
            log = [(row.kind, row.slots) for row in move_log.unpacked(entry)]
        else:
            log = await _lookups().log.rows((entry.pk, entry.seq))
        game = games.rebuild(deal, log)
        games.cache.put(entry.pk, entry.seq, game)
    return game


class Lookup:
    """Reads of one kind for every arrival waiting, in one statement (`keys` -> its
    parameters), one statement at a time: arrivals come in crowds — a replica stopping
    sends hundreds of players to the other within a second — and a statement each
    queued them on the pool's connections (2 s and more at 300 arrivals). Sockets of
    the same race, arriving together, share their race's read."""

    def __init__(self, statement, params, width=1):
        self.statement, self.params, self.width = statement, params, width
        self.waiting = {}
        """key -> the future of its rows, each without the key's columns"""
        self.task = None

    async def rows(self, key):
        future = self.waiting.get(key)
        if future is None:
            future = self.waiting[key] = asyncio.get_running_loop().create_future()
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())
        return await asyncio.shield(future)  # a socket that closes leaves the others theirs

    async def run(self):
        while self.waiting:
            keys = list(itertools.islice(self.waiting, BATCH))
            batch = {key: self.waiting.pop(key) for key in keys}
            try:
                found = await moves.fetch(self.statement, self.params(keys))
            except Exception as exc:
                for future in batch.values():
                    future.set_exception(exc)
                continue
            rows = collections.defaultdict(list)
            for row in found:
                key = row[0] if self.width == 1 else tuple(row[: self.width])
                rows[key].append(row[self.width :])
            for key, future in batch.items():
                future.set_result(rows.get(key, []))


class Lookups:
    def __init__(self):
        self.session = Lookup(SESSION, lambda keys: (keys,))
        self.race = Lookup(RACE_ROWS, lambda keys: (keys,))
        self.log = Lookup(LOG, lambda keys: ([e for e, _ in keys], [s for _, s in keys]), 2)


_by_loop = weakref.WeakKeyDictionary()


def _lookups():
    """This event loop's lookups (daphne runs one loop, tests one per test)."""
    loop = asyncio.get_running_loop()
    if loop not in _by_loop:
        _by_loop[loop] = Lookups()
    return _by_loop[loop]
