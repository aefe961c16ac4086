"""Depth-first search for a winning line, with a table of positions known to fail.

A :class:`Search` owns a board and explores it move by move: forced moves
first (no branching), then a dead-end test by the class guards, then every
candidate move, best-looking first. A position whose candidates all fail is
remembered as failed for good: the table holds only proved facts, so it
survives restarts and budget slices, and a later run goes on where an earlier
one stopped.
"""

import random
import time

from .rules import candidate_moves, forced_moves


class OutOfBudget(Exception):
    """The caller's node or time budget is spent."""


class SliceOver(Exception):
    """The current slice of a budget is spent; the search may resume later."""


class Budget:
    """Nodes and CPU seconds shared by every search working on one question.

    Seconds are the solving thread's CPU time, not wall time, so a verdict
    does not depend on how busy the machine is.
    """

    CHECK_EVERY = 256

    def __init__(self, max_nodes=None, max_seconds=None):
        self.nodes = 0
        self.max_nodes = max_nodes
        self.started = time.thread_time()
        self.deadline = None if max_seconds is None else self.started + max_seconds
        self.slice_end = None
        self._next_check = self.CHECK_EVERY

    def tick(self):
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self.CHECK_EVERY
            self._check()

    def _check(self):
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfBudget
        if self.deadline is not None and time.thread_time() >= self.deadline:
            raise OutOfBudget
        if self.slice_end is not None and self.nodes >= self.slice_end:
            raise SliceOver

    @property
    def seconds(self):
        return time.thread_time() - self.started


class Guard:
    """Can one class of cards still be cleared on its own? Memoised.

    Dropping every card of the other classes can only make cards playable
    sooner, so if a class cannot be cleared alone, the whole position cannot
    be won (docs/solver.md, "Class guards"). The class key says how many of
    the class's cards each stack still holds: the whole projected position.
    """

    def __init__(self, board, cls, budget):
        self.cls = cls
        self.search = Search(board.project({cls}), budget)
        self._known = {}

    def allows(self, class_keys):
        key = class_keys[self.cls]
        verdict = self._known.get(key)
        if verdict is None:
            heights = self.search.board.heights_from_class_key(key)
            verdict = self._known[key] = self.search.exhaust(heights)
        return verdict


class Search:
    def __init__(self, board, budget, guards=()):
        self.board = board
        self.budget = budget
        self.guards = tuple(guards)
        self.failed = set()
        self.line = []
        self._shuffle = None

    def run(self, nodes, seed=0):
        """Search from the start for at most ``nodes`` more nodes.

        ``True`` (``line`` holds a winning line), ``False`` (proved lost) or
        ``None`` (slice spent). Seed 0 follows the move ordering; other seeds
        perturb it, so a restart tries other first moves without losing the
        failed positions already proved.
        """
        self._shuffle = random.Random(seed) if seed else None
        self.budget.slice_end = self.budget.nodes + nodes
        try:
            return self.exhaust()
        except SliceOver:
            return None
        finally:
            self.budget.slice_end = None

    def exhaust(self, heights=None):
        """Search from the start (or ``heights``) until decided or out of budget."""
        self.board.reset(heights)
        self.line = []
        return self._explore()

    def _explore(self):
        """Can the board be won? On ``False`` the board is back as it was."""
        self.budget.tick()
        board, line, failed = self.board, self.line, self.failed
        entry_key, played = board.key, len(line)
        forced = forced_moves(board)
        while forced:
            for move in forced:
                board.play(move)
                line.append(move)
            forced = forced_moves(board)
        if not board.left:
            return True
        key = board.key
        if key not in failed and self._guards_allow():
            for move in self._ordered(candidate_moves(board)):
                if board.key_after(move) in failed:
                    continue
                board.play(move)
                line.append(move)
                if self._explore():
                    return True
                board.undo(line.pop())
        failed.add(key)
        failed.add(entry_key)
        while len(line) > played:
            board.undo(line.pop())
        return False

    def _guards_allow(self):
        class_keys = self.board.class_keys
        return all(guard.allows(class_keys) for guard in self.guards)

    def _ordered(self, moves):
        """Dig first: moves taking cards from tall stacks come first.

        Any order is exact; this one finds winning lines sooner. After a
        restart (seed > 0) neighbours swap at random, to try other lines.
        """
        if len(moves) < 2:
            return moves
        height = self.board.height
        moves.sort(key=lambda move: -sum([height[s] for s in move]) / len(move))
        if self._shuffle:
            coin = self._shuffle.random
            for i in range(len(moves) - 1):
                if coin() < 0.3:
                    moves[i], moves[i + 1] = moves[i + 1], moves[i]
        return moves
