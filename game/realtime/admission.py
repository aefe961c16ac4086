"""
Which frames a process takes on, so that no client can make others wait.

Every socket has its own credit (a flood past it closes the socket). Past that,
the frames that reach the database draw on two budgets shared by all sockets
of one process: the session's and the client address's, so forty sockets of
one script get what one player gets, not forty times it. Every queue is
bounded: a socket may have HALFMOON_SOCKET_QUEUE frames waiting, the process
HALFMOON_PROCESS_QUEUE in all. A frame over a budget or a bound is answered
`busy` at once (nothing applied; retry later) instead of queueing without end.
"""

import threading

from django.conf import settings

from game.realtime.credit import Credit

ADMIT, BUSY = "admit", "busy"
MAX_KEYS = 20_000

_budgets = {}
_lock = threading.Lock()
_pending = 0
"""Frames admitted by this process and not yet handled."""


def _spend(kind, key, rate, burst):
    with _lock:
        if len(_budgets) > MAX_KEYS:
            _budgets.clear()
        credit = _budgets.get((kind, key))
        if credit is None or (credit.rate, credit.burst) != (rate, burst):
            credit = _budgets[(kind, key)] = Credit(rate, burst)
        return credit.spend()


class Gate:
    """One socket's admission: its own credit, its session's and address's budgets."""

    def __init__(self, session, address):
        self.session, self.address = session, address
        self.credit = Credit(settings.HALFMOON_FRAME_RATE, settings.HALFMOON_FRAME_BURST)

    def flooding(self):
        """Spend the socket's own credit; True when it has none left (close it)."""
        return not self.credit.spend()

    def admit(self, queued):
        """ADMIT or BUSY for a frame that would wait behind `queued` of this socket's."""
        if queued >= settings.HALFMOON_SOCKET_QUEUE:
            return BUSY
        if _pending >= settings.HALFMOON_PROCESS_QUEUE:
            return BUSY
        session_ok = _spend(
            "session",
            self.session,
            settings.HALFMOON_SESSION_FRAME_RATE,
            settings.HALFMOON_SESSION_FRAME_BURST,
        )
        address_ok = session_ok and _spend(
            "address",
            self.address,
            settings.HALFMOON_ADDRESS_FRAME_RATE,
            settings.HALFMOON_ADDRESS_FRAME_BURST,
        )
        return ADMIT if address_ok else BUSY


def started():
    global _pending
    _pending += 1


def finished():
    global _pending
    _pending -= 1
