"""
Which frames a process takes on, and in what order, so that no client can make
others wait.

Every socket has its own credit (a flood past it closes the socket). Past that,
the frames that reach the database draw on two budgets shared by all sockets
of one process: the session's and the client address's, so forty sockets of
one script get what one player gets, not forty times it. A frame over a
budget or a bound is answered `busy` at once (nothing applied; retry later)
instead of queueing without end.

Budgets alone did not stop a few addresses: 320 sockets over 8 addresses, each
within every budget, filled the one queue a process kept for everyone, and an
honest player's moves were `busy` (47 of 61) and a `sync` took 2.1 s. So:

- Every queue is bounded, and fairly: a socket may have HALFMOON_SOCKET_QUEUE
  frames waiting, and a client address its share of HALFMOON_PROCESS_QUEUE — the
  bound divided among the addresses that have frames waiting (never less than a
  socket's queue). An address past its share is told `busy`; one that has
  little waiting is not, however full the process is.
- The process's one database thread is taken in turns by address (`Turns`), not
  in one line in order of arrival: at most `WIDTH` calls at once, then a call
  of an address that had nothing waiting (a player's occasional frame) before
  the addresses that keep a line, and those in rotation, one call each.
"""

import asyncio
import collections
import threading
import weakref

from django.conf import settings

from game.realtime.credit import Credit

ADMIT, BUSY = "admit", "busy"
MAX_KEYS = 20_000
WIDTH = 2
"""Database calls handed on at once: one running on the thread, one ready behind it."""

_budgets = {}
_lock = threading.Lock()
_pending = collections.Counter()
"""Client address -> frames admitted by this process and not yet handled."""
_turns = weakref.WeakKeyDictionary()
"""Event loop -> its `Turns` (daphne runs one loop, tests one per test)."""


def _spend(kind, key, rate, burst):
    with _lock:
        if len(_budgets) > MAX_KEYS:
            _budgets.clear()
        credit = _budgets.get((kind, key))
        if credit is None or (credit.rate, credit.burst) != (rate, burst):
            credit = _budgets[(kind, key)] = Credit(rate, burst)
        return credit.spend()


def share(process_queue=None, socket_queue=None):
    """How many frames one address may have waiting in this process now (the bounds
    as a `Gate` read them, else the settings')."""
    process_queue = settings.HALFMOON_PROCESS_QUEUE if process_queue is None else process_queue
    socket_queue = settings.HALFMOON_SOCKET_QUEUE if socket_queue is None else socket_queue
    return max(socket_queue, process_queue // max(1, len(_pending)))


class Gate:
    """One socket's admission: its own credit, its session's and address's budgets,
    its address's share of the process, and its turn at the database."""

    def __init__(self, session, address):
        """The bounds and budgets are read once, as the socket opens: a frame reads
        no setting (each is a lookup through Django's lazy settings)."""
        self.session, self.address = session, address
        self.credit = Credit(settings.HALFMOON_FRAME_RATE, settings.HALFMOON_FRAME_BURST)
        self.socket_queue = settings.HALFMOON_SOCKET_QUEUE
        self.process_queue = settings.HALFMOON_PROCESS_QUEUE
        self.session_budget = (
            settings.HALFMOON_SESSION_FRAME_RATE,
            settings.HALFMOON_SESSION_FRAME_BURST,
        )
        self.address_budget = (
            settings.HALFMOON_ADDRESS_FRAME_RATE,
            settings.HALFMOON_ADDRESS_FRAME_BURST,
        )

    def flooding(self):
        """Spend the socket's own credit; True when it has none left (close it)."""
        return not self.credit.spend()

    def admit(self, queued):
        """ADMIT or BUSY for a frame that would wait behind `queued` of this socket's."""
        if queued >= self.socket_queue or _pending[self.address] >= share(
            self.process_queue, self.socket_queue
        ):
            return BUSY
        session_ok = _spend("session", self.session, *self.session_budget)
        address_ok = session_ok and _spend("address", self.address, *self.address_budget)
        return ADMIT if address_ok else BUSY

    def started(self):
        """A frame of this socket's was admitted (it waits until `finished`)."""
        _pending[self.address] += 1

    def finished(self):
        _pending[self.address] -= 1
        if _pending[self.address] <= 0:
            del _pending[self.address]

    async def run(self, call, *args):
        """`await call(*args)` (a database call) when this address's turn comes."""
        loop = asyncio.get_running_loop()
        if loop not in _turns:
            _turns[loop] = Turns(WIDTH)
        return await _turns[loop].run(self.address, call, *args)


class Turns:
    """Calls taken in turn by key: at most `width` at once. When one ends, its place
    goes first to a key that had nothing running or waiting (a player's occasional
    frame), else to the next key in rotation among those that keep a line (as
    FQ-CoDel serves new flows before old ones); a key served goes to the end."""

    def __init__(self, width):
        self.width, self.running = width, collections.Counter()
        self.new, self.old = collections.OrderedDict(), collections.OrderedDict()
        """key -> its waiting calls' futures, in the order their turns come."""

    async def run(self, key, call, *args):
        if sum(self.running.values()) < self.width and not (self.new or self.old):
            self.running[key] += 1
        else:
            busy = key in self.running or key in self.old or key in self.new
            line = self.new if key in self.new or not busy else self.old
            turn = asyncio.get_running_loop().create_future()
            line.setdefault(key, collections.deque()).append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if not turn.cancelled():  # given its place as it was cancelled: pass it on
                    self.next(key)
                raise
        try:
            return await call(*args)
        finally:
            self.next(key)

    def next(self, done):
        """A call of `done` ended: its place to the first waiting call of the next key."""
        self.running[done] -= 1
        if self.running[done] <= 0:
            del self.running[done]
        while self.new or self.old:
            line = self.new or self.old
            key, turns = next(iter(line.items()))
            turn = turns.popleft()
            del line[key]
            if turns:
                self.old[key] = turns
            if not turn.done():  # not cancelled meanwhile
                turn.set_result(None)
                self.running[key] += 1
                return
