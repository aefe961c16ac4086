"""
The race protocol at the edge: client frames parsed once into typed messages.

Nothing past this module sees raw JSON: `parse()` either returns one of the
message dataclasses below or raises `GameError(code, message)`, which the
socket's door (game/realtime/door.py) answers with an `error` frame. Whether a
move is legal is not decided here (the engine does that and the answer is
`rejected`); only whether the frame is well-formed. What the server sends back
is built in game/race/frames.py.

The event's standings socket (game/events/consumer.py) reads by the same rule, with
one type only (`EVENT_FRAMES`): a frame is a `{"type":"ping"}` or an `error`, never a
`pong` for any text that happens to contain "ping".
"""

from dataclasses import dataclass

from game.base import inputs
from game.base.errors import GameError
from game.models import NAME_MAX

MAX_SEQ = 1_000_000


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
    """A display name: text, trimmed, 1 to NAME_MAX characters, no control characters."""
    if not isinstance(value, str):
        raise GameError("bad_name", "a name is text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise GameError("bad_name", f"a name has 1 to {NAME_MAX} printable characters")
    return name


def _seq(frame):
    seq = frame.get("seq")
    if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
        raise GameError("bad_field", f"seq must be an integer from 1 to {MAX_SEQ}")
    return seq


def _slots(frame):
    """One to three short slot names; which names exist, and how many make a move,
    is the engine's call (one slot is refused there as `bad_count`)."""
    slots = frame.get("slots")
    if (
        not isinstance(slots, list)
        or not 1 <= len(slots) <= 3
        or not all(isinstance(slot, str) and 1 <= len(slot) <= 3 for slot in slots)
    ):
        raise GameError("bad_field", "slots must be a list of up to 3 slot names like P1, R8")
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


RACE_FRAMES = _PARSERS
"""What a race socket reads: every frame above."""
EVENT_FRAMES = {"ping": _PARSERS["ping"]}
"""What an event's standings socket reads: nothing but a ping."""


def parse(text, parsers=RACE_FRAMES):
    """One text frame -> a message, or GameError with the `error` code to send; `parsers`
    the socket's types (a race's by default, `EVENT_FRAMES` for an event's)."""
    if text is None:
        raise GameError("bad_json", "frames are JSON text, not binary")
    frame = inputs.json_object(text, "a frame")
    kind = frame.get("type")
    parser = parsers.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise GameError("unknown_type", f"unknown type; one of {', '.join(parsers)}")
    return parser(frame)
