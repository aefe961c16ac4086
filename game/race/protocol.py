"""
The race protocol at the edge: client frames declared once, as msgspec Structs in a
union tagged by `type`, and decoded straight into them.

Nothing past this module sees raw JSON: `parse()` either returns one of the
message Structs below or raises `GameError(code, message)` from the one registry
(game/base/errors.py), which the socket's door (game/realtime/door.py) answers with an
`error` frame. Whether a move is legal is not decided here (the engine does that and
the answer is `rejected`); only whether the frame is well-formed. What the server
sends back is declared in game/race/schema.py and built in game/race/frames.py;
docs/protocol.md is held to both by tests/race/test_schema.py.

The event's standings socket (game/events/consumer.py) reads by the same rule, with
one type only (`EVENT_FRAMES`): a frame is a `{"type":"ping"}` or an `error`, never a
`pong` for any text that happens to contain "ping".

msgspec, not the hand parser over orjson it replaced: a third of its time for a
well-formed frame (a move 3.9 µs instead of 9.5 on a loaded machine), twice it for a
refused one, which is decoded again to say why (bench/frame_decode.py).
"""

from typing import Annotated, Union

import msgspec
from msgspec import Meta, Struct

from game.base import inputs
from game.base.errors import GameError
from game.models import NAME_MAX

MAX_SEQ = 1_000_000

Seq = Annotated[int, Meta(ge=1, le=MAX_SEQ)]
"""A player's move number: the next is one more than the last the server accepted."""
SlotName = Annotated[str, Meta(min_length=1, max_length=3)]
"""A slot's name, any case (P1-P12, R1-R8: which exist is the engine's call)."""


class ClientFrame(Struct, frozen=True, tag_field="type"):
    """What a client sends: a JSON object whose `type` names the message."""


class Join(ClientFrame, tag="join"):
    """Take a seat in the lobby, or rename oneself (trimmed, 1 to NAME_MAX printable)."""

    name: str

    def __post_init__(self):
        msgspec.structs.force_setattr(self, "name", clean_name(self.name))


class Start(ClientFrame, tag="start"):
    """The host starts the race: the countdown."""


class Move(ClientFrame, tag="move"):
    """Slots played together, as the player's `seq`th move or undo: one to three short
    names, upper-cased; which names exist, and how many make a move, is the engine's
    call (one slot is refused there as `bad_count`)."""

    seq: Seq
    slots: Annotated[tuple[SlotName, ...], Meta(min_length=1, max_length=3)]

    def __post_init__(self):
        msgspec.structs.force_setattr(self, "slots", tuple(s.upper() for s in self.slots))


class Undo(ClientFrame, tag="undo"):
    """Take back the last move, as the player's `seq`th move or undo."""

    seq: Seq


class Resign(ClientFrame, tag="resign"):
    """Give up one's game."""


class Sync(ClientFrame, tag="sync"):
    """Send me the whole `state` again (a gap in `event`)."""


class Rematch(ClientFrame, tag="rematch"):
    """The next race on a new deal, once this one is over."""


class Ping(ClientFrame, tag="ping"):
    """Anything there? Answered `pong` with the server's clock."""


def clean_name(value):
    """A display name: text, trimmed, 1 to NAME_MAX characters, no control characters."""
    if not isinstance(value, str):
        raise GameError("bad_name", "a name is text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise GameError("bad_name", f"a name has 1 to {NAME_MAX} printable characters")
    return name


MESSAGES = (Join, Start, Move, Undo, Resign, Sync, Rematch, Ping)
"""Every client frame, in docs/protocol.md's order."""
KINDS = [message.__struct_config__.tag for message in MESSAGES]


def _refusals(kinds):
    """The error for each field at fault, in the registry's codes."""
    return {
        "type": ("unknown_type", f"unknown type; one of {', '.join(kinds)}"),
        "seq": ("bad_field", f"seq must be an integer from 1 to {MAX_SEQ}"),
        "slots": ("bad_field", "slots must be a list of up to 3 slot names like P1, R8"),
        "name": ("bad_name", f"a name has 1 to {NAME_MAX} printable characters"),
    }


ANY_FRAME = Union[MESSAGES]  # noqa: UP007 - a union of a tuple of types
"""Every client frame, one tagged union: a decoder tells them apart by `type`."""
RACE_FRAMES = inputs.Reader(ANY_FRAME, "a frame", _refusals(KINDS))
"""What a race socket reads: every frame above."""
EVENT_FRAMES = inputs.Reader(ANY_FRAME, "a frame", _refusals(["ping"]), kinds=[Ping])
"""What an event's standings socket reads: nothing but a ping."""


def parse(text, reader=RACE_FRAMES):
    """One text frame -> a message, or GameError with the `error` code to send; `reader`
    the socket's (a race's by default, `EVENT_FRAMES` for an event's)."""
    if text is None:
        raise GameError("bad_json", "frames are JSON text, not binary")
    return reader.read(text)
