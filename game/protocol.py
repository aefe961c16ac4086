"""
The race protocol at the edge: client frames parsed once into typed messages,
the limits every socket lives under, and the shapes of the frames the server sends.

Nothing past this module sees raw JSON: `parse()` either returns one of the
message dataclasses below or raises `ProtocolError(code, message)`, which the
consumer answers with an `error` frame. Whether a move is legal is not decided
here (the engine does that and the answer is `rejected`); only whether the
frame is well-formed. docs/protocol.md is the contract these shapes follow.
"""

import json
import time
from dataclasses import dataclass

MAX_FRAME_BYTES = 4096
NAME_MAX = 24
MAX_SEQ = 1_000_000


class ProtocolError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Join:
    name: str


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Move:
    seq: int
    slots: tuple


@dataclass(frozen=True)
class Undo:
    seq: int


@dataclass(frozen=True)
class Resign:
    pass


@dataclass(frozen=True)
class Sync:
    pass


@dataclass(frozen=True)
class Rematch:
    pass


@dataclass(frozen=True)
class Ping:
    pass


def clean_name(value):
    """A display name: text, trimmed, 1-24 characters, no control characters."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "a name is text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise ProtocolError("bad_name", f"a name has 1 to {NAME_MAX} printable characters")
    return name


def _seq(frame):
    seq = frame.get("seq")
    if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
        raise ProtocolError("bad_field", f"seq must be an integer from 1 to {MAX_SEQ}")
    return seq


def _slots(frame):
    """Two or three short slot names; which names exist is the engine's call."""
    slots = frame.get("slots")
    if (
        not isinstance(slots, list)
        or not 1 <= len(slots) <= 3
        or not all(isinstance(slot, str) and 1 <= len(slot) <= 3 for slot in slots)
    ):
        raise ProtocolError("bad_field", "slots must be a list of 2 or 3 slot names like P1, R8")
    return tuple(slot.upper() for slot in slots)


_PARSERS = {
    "join": lambda frame: Join(clean_name(frame.get("name"))),
    "start": lambda frame: Start(),
    "move": lambda frame: Move(_seq(frame), _slots(frame)),
    "undo": lambda frame: Undo(_seq(frame)),
    "resign": lambda frame: Resign(),
    "sync": lambda frame: Sync(),
    "rematch": lambda frame: Rematch(),
    "ping": lambda frame: Ping(),
}


def parse(text):
    """One text frame -> a message, or ProtocolError with the `error` code to send."""
    if text is None:
        raise ProtocolError("bad_json", "frames are JSON text, not binary")
    if len(text) > MAX_FRAME_BYTES or len(text.encode()) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"a frame is at most {MAX_FRAME_BYTES} bytes")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting a few thousand deep
        raise ProtocolError("bad_json", "a frame is one JSON object") from None
    if not isinstance(frame, dict):
        raise ProtocolError("bad_json", "a frame is one JSON object")
    kind = frame.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise ProtocolError("unknown_type", f"unknown type; one of {', '.join(_PARSERS)}")
    return parser(frame)


_clock = time.monotonic


class Credit:
    """A token bucket: `burst` frames at once, `rate` a second after.

    A socket gets settings.HALFMOON_FRAME_BURST and HALFMOON_FRAME_RATE; one that
    spends it all is flooding and is closed (1008): answering a flood frame by
    frame would let one socket keep the process busy.
    """

    def __init__(self, rate, burst):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = _clock()

    def spend(self):
        now = _clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def ms(moment):
    """A datetime as milliseconds since the Unix epoch (None stays None)."""
    return None if moment is None else int(moment.timestamp() * 1000)


def now_ms():
    return int(time.time() * 1000)


def error(code, message):
    return {"type": "error", "code": code, "message": message}


def rejected(seq, code, message):
    return {"type": "rejected", "seq": seq, "code": code, "message": message}


def pong():
    return {"type": "pong", "now": now_ms()}


def moved(seq, kind, result, game):
    """The mover's answer: the cards that moved and the new tops, never a card beneath."""
    return {
        "type": "moved",
        "seq": seq,
        "kind": kind,
        "slots": list(result.slots),
        "removed": dict(zip(result.slots, result.removed, strict=True)),
        "revealed": dict(zip(result.slots, result.revealed, strict=True)),
        "score": game.score,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": game.status,
        "can_undo": game.status != "won" and bool(game.history),
    }
