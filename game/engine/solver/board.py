"""A position in the solver's own terms: stacks of card values, suits dropped.

The rule book lets any two playable cards summing to 11, or any Jack, Queen
and King, go together, whatever their suits: so the solver keeps values only
(A=1 … K=13). All 20 slots are stacks, a reserve slot being a stack of one
card, and slot identity never matters to the rules — only what each stack
holds. A position is therefore the *multiset* of stack contents, and its
``key`` encodes exactly that (docs/solver.md, "Positions").
"""

from ..rules import PAIRS, TRIO

_CLASS = {value: cls for cls, values in enumerate((*PAIRS, TRIO)) for value in values}
CLASS_OF = tuple(_CLASS.get(value) for value in range(14))
"""value -> class: the five pair classes A+10, 2+9, 3+8, 4+7, 5+6, then faces
(the engine's ``PAIRS`` and ``TRIO``: a card only ever goes with its own class)."""

CLASSES = range(max(_CLASS.values()) + 1)
STACK_BITS = 4
"""Bits per stack in a class key: a stack never holds more than 15 cards."""


class Board:
    """Stacks of card values (bottom -> top) with their current heights.

    Besides the heights it keeps, up to date on every move, what the search
    asks at every node: which stacks show which value, how many cards of each
    value remain, how many stacks hold a single card of each value, the
    position key and one key per class for the class guards.
    """

    __slots__ = (
        "stacks",
        "height",
        "left",
        "key",
        "class_keys",
        "remaining",
        "showing",
        "alone",
        "content_ids",
        "_digit",
        "_step",
        "_class_bit",
        "_tables",
    )

    def __init__(self, stacks):
        self.stacks = tuple(tuple(stack) for stack in stacks)
        if any(len(stack) >= 1 << STACK_BITS for stack in self.stacks):
            raise ValueError("a stack holds at most 15 cards")
        self._index_contents()
        self._class_bit = [1 << (STACK_BITS * s) for s in range(len(self.stacks))]
        self.reset()

    def _index_contents(self):
        """Number every distinct stack content; ``_step`` moves the key down one card.

        ``content_ids[s][h]`` names what stack ``s`` holds at height ``h``: equal
        ids, interchangeable stacks. The key is a sum with one 5-bit digit per
        content id counting the stacks that hold that content, so it names the
        multiset of contents exactly (at most 20 stacks share one, fewer than 32).
        """
        ids = {(): 0}
        content = [
            [ids.setdefault(stack[:height], len(ids)) for height in range(len(stack) + 1)]
            for stack in self.stacks
        ]
        digit = [0] + [1 << (5 * i) for i in range(1, len(ids))]
        self.content_ids = content
        self._digit = digit
        self._step = [
            [0] + [digit[ids_[h - 1]] - digit[ids_[h]] for h in range(1, len(ids_))]
            for ids_ in content
        ]

    def reset(self, heights=None):
        """Back to the full stacks, or to the given heights."""
        self.height = [len(stack) for stack in self.stacks] if heights is None else list(heights)
        self.remaining = [0] * 14
        self.showing = [set() for _ in range(14)]
        self.alone = [0] * 14
        self.class_keys = [0] * 6
        for s, (stack, height) in enumerate(zip(self.stacks, self.height, strict=True)):
            for value in stack[:height]:
                self.remaining[value] += 1
                self.class_keys[CLASS_OF[value]] += self._class_bit[s]
            if height:
                self.showing[stack[height - 1]].add(s)
                self.alone[stack[0]] += height == 1
        self.left = sum(self.height)
        self.key = sum(
            self._digit[ids[h]] for ids, h in zip(self.content_ids, self.height, strict=True)
        )
        # What play() and undo() work on, unpacked in one step (they run at every node).
        self._tables = (self.stacks, self.height, self.showing, self.alone)
        self._tables += (self.remaining, self.class_keys, self._class_bit, self._step)

    def key_after(self, move):
        """The key once ``move`` is played, without playing it."""
        height, step = self.height, self._step
        return self.key + sum([step[s][height[s]] for s in move])

    def play(self, move):
        stacks, height, showing, alone, remaining, class_keys, class_bit, step = self._tables
        key = self.key
        for s in move:
            h = height[s]
            stack = stacks[s]
            value = stack[h - 1]
            showing[value].discard(s)
            remaining[value] -= 1
            class_keys[CLASS_OF[value]] -= class_bit[s]
            key += step[s][h]
            h -= 1
            height[s] = h
            if h:
                showing[stack[h - 1]].add(s)
                if h == 1:
                    alone[stack[0]] += 1
            else:
                alone[value] -= 1
        self.key = key
        self.left -= len(move)

    def undo(self, move):
        stacks, height, showing, alone, remaining, class_keys, class_bit, step = self._tables
        key = self.key
        for s in move:
            h = height[s]
            stack = stacks[s]
            if h:
                showing[stack[h - 1]].discard(s)
                if h == 1:
                    alone[stack[0]] -= 1
            h += 1
            height[s] = h
            value = stack[h - 1]
            showing[value].add(s)
            if h == 1:
                alone[value] += 1
            remaining[value] += 1
            class_keys[CLASS_OF[value]] += class_bit[s]
            key -= step[s][h]
        self.key = key
        self.left += len(move)

    def upside_down(self):
        """The same position with every stack turned over (docs/solver.md, "Upside down")."""
        return Board(
            tuple(reversed(stack[:height]))
            for stack, height in zip(self.stacks, self.height, strict=True)
        )

    def project(self, classes):
        """The same position with only the cards of ``classes`` (a relaxation)."""
        kept = [
            tuple(value for value in stack[:height] if CLASS_OF[value] in classes)
            for stack, height in zip(self.stacks, self.height, strict=True)
        ]
        return Board(kept)

    def heights_from_class_key(self, key):
        """Stack heights of a one-class projection, from a class key of the same stacks."""
        mask = (1 << STACK_BITS) - 1
        return [(key >> (STACK_BITS * s)) & mask for s in range(len(self.stacks))]
