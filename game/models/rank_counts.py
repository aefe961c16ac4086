"""
Ranks deep in a board without counting everyone ahead: each board's rows counted by a
coarse key (`RankCount`: a rating's whole point, a record's figure and day, a best
time's second), kept in step by the writers of those rows in their own transaction
(`moved`: game/results/records.py, game/results/rated.py; `removed` when a row is
deleted), gathered while a writer is `collected` and applied once, in key order.
A rank is then the sum over the keys ahead plus a count among the rows of one key: at
100,000 accounts a sum of some thousand rows and a count of tens, against a count of
up to 100,000 index entries (20 ms in PostgreSQL, bench/friends_boards.py).
"""

import contextvars
from collections import Counter
from contextlib import contextmanager

from django.db import connection, connections, router

from game.models import Account, RankCount, Record

UPSERT = (
    "INSERT INTO game_rankcount (board, key, size) VALUES (%s, %s, %s) "
    "ON CONFLICT (board, key) DO UPDATE SET size = game_rankcount.size + EXCLUDED.size"
)
"""PostgreSQL's and SQLite's (3.24+) upsert: a key's first row creates its count."""


def changes(before, after):
    """{(board, key): +1 or -1} from a row's `counted_on()` before and after a change."""
    delta = Counter(after)
    delta.subtract(before)
    return {key: n for key, n in delta.items() if n}


_gathering = contextvars.ContextVar("rank_count_changes", default=None)


@contextmanager
def collected():
    """Inside, every change (a writer's `moved`, a deletion's `removed`) is gathered and
    applied on leaving, in one `shift`; nothing if the block raised. Use it inside the
    writer's transaction."""
    gathered = Counter()
    token = _gathering.set(gathered)
    try:
        yield
    finally:
        _gathering.reset(token)
    shift({key: n for key, n in gathered.items() if n})


def moved(before, after):
    """A row's boards and keys changed from `before` to `after` (`counted_on()` lists)."""
    delta = changes(before, after)
    gathering = _gathering.get()
    if gathering is None:
        shift(delta)
    else:
        gathering.update(delta)


def shift(delta):
    """Apply {(board, key): n}, in the order of their keys: two writers who touch the
    same counts lock them in the same order, so they wait for each other, never deadlock.
    Call it inside the transaction that changes the rows."""
    if not delta:
        return
    with connection.cursor() as cursor:
        cursor.executemany(UPSERT, [(board, key, n) for (board, key), n in sorted(delta.items())])


def removed(sender, instance, **kwargs):
    """post_delete of a `Record` or an `Account` (a staff deletion, a cascade): its rows
    leave their boards."""
    moved(instance.counted_on(), [])


RANK = (
    "SELECT (SELECT COALESCE(SUM(size), 0) FROM game_rankcount WHERE board = %s AND key > %s)"
    " + (SELECT COUNT(*) FROM ({tied_ahead}) AS tied_ahead) + 1"
)
"""A rank: the rows of the keys ahead (their counts) and those ahead among one's own key."""


def rank(board, key, tied_ahead, params):
    """The rank on `board` of a row whose key is `key`: the rows of the keys above it,
    plus the rows `tied_ahead` selects (SQL and its `params`: the rows of its key ranked
    before it), plus one. One statement, not the ORM's two aggregates (`aggregate`,
    `count`): the sum alone through the ORM took 0.9 ms of the web process's time, by
    hand 0.1 ms. Read where the page reads (a replica's board: game/base/replica.py)."""
    with connections[router.db_for_read(RankCount)].cursor() as cursor:  # the ORM's choice
        cursor.execute(RANK.format(tied_ahead=tied_ahead), [board, key, *params])
        return cursor.fetchone()[0]


def rebuild():
    """Count every board again from its rows (after a restore, or a fill by COPY)."""
    counts = Counter()
    # Only the fields the keys read: migration 0016 runs this before later migrations
    # add columns to these tables, which selecting them all would then name.
    read = {
        Record: ("period", "start", "wins", "last_won", "streak", "streak_on", "best_ms"),
        Account: ("rating", "rated_games"),
    }
    for model, fields in read.items():
        for row in model.objects.only(*fields).iterator(chunk_size=10_000):
            counts.update(row.counted_on())
    RankCount.objects.all().delete()
    RankCount.objects.bulk_create(
        (RankCount(board=board, key=key, size=n) for (board, key), n in counts.items() if n),
        batch_size=5_000,
    )
    return len(counts)
