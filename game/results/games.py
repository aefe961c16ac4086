"""
Players' games: rebuilt from stored moves, cached per process.

The database holds only the deal and each player's accepted moves; a game is
those moves replayed on the deal. Replaying on every move would cost a query
and a replay, so each process keeps the games it has touched, keyed by entry
and tagged with the entry's `seq`. A cached game is used only while its seq
equals the stored one: a move made through another process bumps the seq and
the next move here replays from the database instead of trusting memory.
"""

import threading
from collections import OrderedDict

from game.engine import Game
from game.engine.scheme import scheme
from game.models import Move
from game.results import move_log

CACHE_SIZE = 4096
INITIAL_HEIGHTS = [8] * 12 + [1] * 8


def replay(entry, deal, upto=None):
    """The entry's game after its stored moves (those with seq <= upto, if given).

    `deal` is the `Deal` row; its engine deal is laid out only here, when a
    game is actually rebuilt, never on a cache hit."""
    return rebuild(deal, [(row.kind, row.slots) for row in move_log.rows(entry, upto)])


def rebuild(deal, log):
    """The game after `log`, [(kind, slots)] in `seq` order, played on the `Deal` row."""
    game = Game(deal.engine_deal())
    for kind, slots in log:
        apply(game, kind, slots)
    return game


def apply(game, kind, slots):
    """One stored row played on `game`: an undo, or the removal of `slots`."""
    return game.undo() if kind == Move.UNDO else game.remove(slots)


def heights(game):
    return game.heights()


def board(game, entry):
    """The player's own view: every slot's count and top card, never a card beneath."""
    return {
        "slots": [view._asdict() for view in scheme(game)],
        "score": game.score,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": entry.status,
        "seq": entry.seq,
        "can_undo": can_undo(game, entry),
    }


def can_undo(game, entry):
    return not entry.done and game.undoable > 0


class GameCache:
    """A small LRU of entry id -> (seq, Game), safe to share between threads."""

    def __init__(self, size=CACHE_SIZE):
        self.size = size
        self._games = OrderedDict()
        self._lock = threading.Lock()

    def take(self, entry, deal):
        """Remove and return the entry's up-to-date game (replayed if missing or stale).

        Taken out, not peeked at: a caller that changes the game gives it back
        with `put` only once its change is committed, so a failed transaction
        never leaves a game in memory that is ahead of the database.
        """
        with self._lock:
            cached = self._games.pop(entry.pk, None)
        if cached is not None and cached[0] == entry.seq:
            return cached[1]
        return replay(entry, deal)

    def take_current(self, entry_id, seq):
        """Remove and return the cached game if it is at `seq`, else None (and keep it)."""
        with self._lock:
            cached = self._games.get(entry_id)
            if cached is None or cached[0] != seq:
                return None
            del self._games[entry_id]
            return cached[1]

    def peek(self, entry_id, seq):
        """The cached game if it is at `seq`, else None; left in the cache, to read only."""
        with self._lock:
            cached = self._games.get(entry_id)
        return cached[1] if cached is not None and cached[0] == seq else None

    def get(self, entry, deal):
        """The entry's up-to-date game, to read only."""
        game = self.take(entry, deal)
        self.put(entry.pk, entry.seq, game)
        return game

    def put(self, entry_id, seq, game):
        with self._lock:
            self._games[entry_id] = (seq, game)
            self._games.move_to_end(entry_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def clear(self):
        with self._lock:
            self._games.clear()


cache = GameCache()
