"""
Every game's stored moves, live or packed, for whoever reads them.

A game in play keeps one `Move` row per accepted move or undo: each is committed
before it is acknowledged, and a row is the cheapest durable append. Once the game
is over nothing can change it, and a row a move would cost about 160 bytes
forever, so `pack` replaces its rows with one `Entry.packed_moves` value of a few
bytes a move (game/engine/packing.py, docs/storage.md) in the transaction that
ends it. Replays, the explorer, analysis, fair play, ghosts, splits and a retried
move read a game's rows here (`rows`, `rows_for`) and never see which form they
came from: the same (seq, kind, slots, at), `at` to the millisecond since the
race's start once packed.
"""

import logging
from typing import NamedTuple

from django.db import transaction
from django.db.models import Q

from game.engine import packing
from game.models import Entry, Move, Race
from game.results.standings import MS

logger = logging.getLogger(__name__)


class Row(NamedTuple):
    """One stored move or undo, as a `Move` row has it."""

    seq: int
    kind: str
    slots: list
    at: object
    """When the server accepted it (a datetime)."""


def rows(entry, upto=None):
    """The entry's rows in seq order (those with seq <= `upto`, if given)."""
    found = rows_for([entry]).get(entry.pk, [])
    return found if upto is None else [row for row in found if row.seq <= upto]


def rows_for(entries):
    """{entry id: its rows in seq order} for `entries` (two queries whatever their
    number, whatever of them was loaded); an entry with no row is left out."""
    ids = [entry.pk for entry in entries]
    logs = {}
    packed = Entry.objects.filter(pk__in=ids, packed_moves__isnull=False)
    for entry in packed.select_related("race__deal"):
        logs[entry.pk] = unpacked(entry)
    live = Move.objects.filter(entry_id__in=[pk for pk in ids if pk not in logs])
    for row in live.order_by("entry_id", "seq").values_list("entry_id", *Row._fields):
        logs.setdefault(row[0], []).append(Row(*row[1:]))
    return {pk: log for pk, log in logs.items() if log}


def _start(race):
    """The instant packed times count from: the race's start (any game with a move has
    one; a row made by hand without it counts from the race's creation)."""
    return race.started_at or race.created_at


def unpacked(entry):
    """The rows of an entry whose game is packed, read from the entry as loaded (no
    query if its race and deal are: a socket's arrival, game/race/arrival.py)."""
    deal, start = entry.race.deal.engine_deal(), _start(entry.race)
    return [
        Row(seq, kind, list(slots), start + ms * MS)
        for seq, kind, slots, ms in packing.decode(deal, entry.packed_moves)
    ]


def pack(entries, race=None):
    """Pack the rows of every entry of `entries` whose game is over and not packed yet
    (of `race`, if given: its row is not read again), and delete them; how many were
    packed. Call it inside the transaction that ends the games. An entry whose rows are
    no game of its deal (never made by the server) keeps them, logged."""
    entries = [entry for entry in entries if entry.packed_moves is None]
    logs, packed = rows_for(entries), 0
    for entry in entries:
        if race is not None:
            entry.race = race
        try:
            entry.packed_moves = _packed(entry, logs.get(entry.pk, []))
        except packing.PackingError as exc:
            logger.warning("entry %s keeps its move rows: %s", entry.pk, exc)
            continue
        entry.save(update_fields=["packed_moves"])
        Move.objects.filter(entry=entry).delete()
        packed += 1
    return packed


def _packed(entry, log):
    race = entry.race
    start = _start(race)
    stored = [(row.seq, row.kind, row.slots, (row.at - start) // MS) for row in log]
    return packing.encode(race.deal.engine_deal(), stored)


def finished_unpacked():
    """The entries whose game is over (done, or its race finished) and still in rows."""
    over = Q(status__in=Entry.DONE) | Q(race__status=Race.FINISHED)
    return Entry.objects.filter(over, packed_moves__isnull=True)


def pack_finished(batch=500):
    """Pack every finished game still in rows (older data, a game whose packing was left
    to later), a batch a transaction; how many were packed. Safe to run any time: no
    move is ever added to a game that is over."""
    total, after = 0, 0
    while True:
        with transaction.atomic():
            left = finished_unpacked().filter(pk__gt=after).order_by("pk")
            ids = list(left.values_list("pk", flat=True)[:batch])
            total += pack(Entry.objects.filter(pk__in=ids).select_related("race__deal"))
        if len(ids) < batch:
            return total
        after = ids[-1]
