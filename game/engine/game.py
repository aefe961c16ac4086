"""A game in play: the authoritative rules of the rule book.

All 20 slots are stacks (a reserve slot is a stack of at most one card), so a
removal is the same pop everywhere and an undo the same push. ``_tops`` mirrors
the playable card of every slot so moves and ``legal_moves()`` never walk the
piles. The hot path resolves slot names through a table of every well-formed
move; anything not in it goes through the slow path, which finds the error.
"""

from collections import deque
from itertools import permutations
from typing import NamedTuple

from .cards import ALL_CARDS, SLOT_INDEX, SLOTS, VALUE
from .rules import PAIR_POINTS, PAIRS, TRIO, TRIO_POINTS, move_error

UNDO_LIMIT = 100
PLAYING, WON, BLOCKED = "playing", "won", "blocked"

_FITTING = frozenset(
    cards
    for size, names in ((2, ALL_CARDS), (3, [card for card in ALL_CARDS if VALUE[card] in TRIO]))
    for cards in permutations(names, size)
    if move_error(cards) is None
)
"""Every ordered pair or trio of card names that is a legal removal (a trio only of
face cards: every process imports this, and all 132,600 trios of 52 names took 80 ms)."""

_MOVE_INDEXES = {
    tuple(SLOTS[i] for i in move): move
    for size in (2, 3)
    for move in permutations(range(len(SLOTS)), size)
}
_MOVE_SLOTS = {indexes: slots for slots, indexes in _MOVE_INDEXES.items()}


class IllegalMove(ValueError):
    """A refused move or undo; ``code`` is registered in game/base/errors.py."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class MoveResult(NamedTuple):
    slots: tuple
    removed: tuple
    revealed: tuple
    """The new playable card of each slot, ``None`` where it is now empty."""


class Game:
    __slots__ = ("deal", "_stacks", "_tops", "_left", "score", "moves", "_undo", "_status")

    def __init__(self, deal):
        self.deal = deal
        self._stacks = [list(pile) for pile in deal.piles] + [[card] for card in deal.reserve]
        self._tops = [stack[-1] for stack in self._stacks]
        self._left = sum(map(len, self._stacks))
        self.score = 0
        self.moves = 0
        self._undo = deque(maxlen=UNDO_LIMIT)
        self._status = None

    @property
    def cards_left(self):
        return self._left

    @property
    def status(self):
        if self._status is None:
            self._status = PLAYING if self._has_move() else (BLOCKED if self._left else WON)
        return self._status

    @property
    def history(self):
        """The moves that lead from the deal to this position (undone ones dropped)."""
        return [_MOVE_SLOTS[indexes] for indexes, _, _ in self._undo]

    @property
    def undoable(self):
        """How many moves `undo` can take back now (`history`'s length, without the list)."""
        return len(self._undo)

    def heights(self):
        """Each slot's card count, in SLOTS order (what opponents see of a board)."""
        return list(map(len, self._stacks))

    def playable(self):
        return {SLOTS[i]: card for i, card in enumerate(self._tops) if card is not None}

    def stack(self, slot):
        """The cards in a slot, bottom -> top (the server never sends these)."""
        return tuple(self._stacks[SLOT_INDEX[slot]])

    def remove(self, slots):
        try:
            move = tuple(slots)
            indexes = _MOVE_INDEXES[move] if self._left else None
        except (KeyError, TypeError):
            indexes = None
        if indexes is None:
            self._refuse(slots)
        tops = self._tops
        cards = tuple([tops[i] for i in indexes])
        if None in cards:
            empty = SLOTS[indexes[cards.index(None)]]
            raise IllegalMove("not_playable", f"{empty} is empty")
        if cards not in _FITTING:
            error = move_error(cards)
            raise IllegalMove(error, _MESSAGES[error])
        stacks = self._stacks
        for i in indexes:
            stack = stacks[i]
            stack.pop()
            tops[i] = stack[-1] if stack else None
        self._undo.append((indexes, cards, self._status))
        size = len(cards)
        self._left -= size
        self.score += PAIR_POINTS if size == 2 else TRIO_POINTS
        self.moves += 1
        self._status = None if self._left else WON
        return MoveResult(move, cards, tuple([tops[i] for i in indexes]))

    def undo(self):
        """Take back the last move; returns the slots and the cards put back."""
        if not self._undo:
            raise IllegalMove("nothing_to_undo", "there is no move to undo")
        indexes, cards, self._status = self._undo.pop()
        stacks, tops = self._stacks, self._tops
        for i, card in zip(indexes, cards, strict=False):
            stacks[i].append(card)
            tops[i] = card
        self._left += len(cards)
        self.score -= PAIR_POINTS if len(cards) == 2 else TRIO_POINTS
        self.moves -= 1
        return MoveResult(_MOVE_SLOTS[indexes], cards, cards)

    def legal_moves(self):
        """Every legal pair and trio, each as a tuple of slots, lower rank first."""
        by_value = [[] for _ in range(14)]
        for slot, card in zip(SLOTS, self._tops, strict=False):
            if card is not None:
                by_value[VALUE[card]].append(slot)
        moves = [
            (low, high)
            for low_value, high_value in PAIRS
            for low in by_value[low_value]
            for high in by_value[high_value]
        ]
        jacks, queens, kings = (by_value[value] for value in TRIO)
        moves += [(jack, queen, king) for jack in jacks for queen in queens for king in kings]
        return moves

    def _has_move(self):
        present = {VALUE[card] for card in self._tops if card is not None}
        if any(low in present and high in present for low, high in PAIRS):
            return True
        return present.issuperset(TRIO)

    def _refuse(self, slots):
        """Explain why ``slots`` is not a well-formed move on this game."""
        if self._left == 0:
            raise IllegalMove("game_over", "the game is over")
        if not isinstance(slots, (list, tuple)) or len(slots) not in (2, 3):
            raise IllegalMove("bad_count", "a move is two cards (a pair) or three (a trio)")
        for slot in slots:
            if not isinstance(slot, str) or slot not in SLOT_INDEX:
                raise IllegalMove("bad_slot", f"no such slot: {str(slot)[:10]!r} (P1-P12, R1-R8)")
        raise IllegalMove("duplicate_slot", "a slot appears twice in the move")


_MESSAGES = {
    "sum_not_11": "The sum must equal 11",
    "needs_jqk": "Requires a Jack, a Queen and a King",
}


def replay(deal, moves):
    """The exact game after playing ``moves`` (slot tuples) on ``deal``."""
    game = Game(deal)
    for move in moves:
        game.remove(move)
    return game
