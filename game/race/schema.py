"""
Every frame the server sends, declared once: a msgspec Struct per `type`, in one union
tagged by it (`ServerFrame`). game/race/frames.py builds them (as plain dicts, encoded
once by orjson on the move path); `check` holds a built frame to its declaration, which
every server test does for every frame it sends (tests/support/server.py), and
tests/race/test_schema.py holds docs/protocol.md's frame tables to these Structs and
proves no module but frames.py writes a frame's `type`.

A field that only some frames of a type carry defaults to UNSET: absent, never null.
"""

from typing import Literal, Union

import msgspec
from msgspec import UNSET, Struct, UnsetType

Ms = int | None
"""A moment as milliseconds since the Unix epoch, server clock; None: not yet, or none."""
Card = str
"""A card as the rule book names it: rank then suit, "5D", "10S", "QH"."""


class Shape(Struct, frozen=True, forbid_unknown_fields=True):
    """A part of a frame: exactly these fields, no other."""


class You(Shape):
    player: int | None
    name: str | None
    role: Literal["player", "spectator"]
    host: bool


class RaceInfo(Shape):
    room: str
    deal: str | None
    mode: Literal["solo", "daily", "race", "quick", "ghost"]
    status: Literal["lobby", "countdown", "running", "finished"]
    host: int | None
    time_limit_s: int | None
    starts_at: Ms
    started_at: Ms
    ends_at: Ms
    finished_at: Ms
    rematch: str | None
    rated: bool


class Player(Shape):
    """A player's public card: what opponents and spectators may know."""

    id: int
    name: str
    host: bool
    connected: bool
    status: str
    score: int
    moves: int
    cards_left: int
    heights: list[int]
    finished_at: Ms


class SlotView(Shape):
    slot: str
    count: int
    top: Card | None


class Board(Shape):
    """A player's own table: counts and tops, never a card beneath."""

    slots: list[SlotView]
    score: int
    moves: int
    cards_left: int
    status: str
    seq: int
    can_undo: bool


class RatingLine(Shape):
    """A rated race's line: the new rating and its change, or `pending`."""

    rating: int | UnsetType = UNSET
    change: int | UnsetType = UNSET
    provisional: bool | UnsetType = UNSET
    counted: bool | UnsetType = UNSET
    unrated: Literal["too_short", "left_early"] | UnsetType = UNSET
    pending: bool | UnsetType = UNSET


class Standing(Shape):
    rank: int | None
    player: int
    name: str
    status: str
    score: int
    moves: int
    undos: int
    time_ms: int | None
    flagged: bool
    disqualified: bool
    ranked: bool
    verified: bool
    held: bool
    held_pace: bool
    rating: RatingLine | UnsetType = UNSET


class Split(Shape):
    removals: int
    you_ms: int | None
    ghost_ms: int | None
    delta_ms: int | None


class Ghost(Shape):
    of: Literal["leader", "best"]
    name: str
    points: list[tuple[int, int, int, int, list[int] | None, str]]


class EventLine(Shape):
    rank: int | None
    id: int
    name: str
    points: int
    wins: int
    list: Literal["ranked", "guests", "held"]


class ServerFrame(Shape, tag_field="type"):
    """What the server sends: a JSON object whose `type` names the message."""


# --- to the socket that asked ---------------------------------------------------------


class State(ServerFrame, tag="state"):
    event: int
    now: int
    you: You
    race: RaceInfo
    players: list[Player]
    board: Board | None
    standings: list[Standing] | None


class GhostFrame(ServerFrame, tag="ghost"):
    ghost: Ghost
    splits: list[Split]


class Moved(ServerFrame, tag="moved"):
    seq: int
    kind: Literal["move", "undo"]
    slots: list[str]
    removed: dict[str, Card]
    revealed: dict[str, Card | None]
    score: int
    moves: int
    cards_left: int
    status: str
    can_undo: bool
    event: int | UnsetType = UNSET
    split: Split | UnsetType = UNSET


class Rejected(ServerFrame, tag="rejected"):
    seq: int | None
    code: str
    message: str


class Error(ServerFrame, tag="error"):
    code: str
    message: str


class Pong(ServerFrame, tag="pong"):
    now: int


# --- to everyone in the race ----------------------------------------------------------


class PlayerJoined(ServerFrame, tag="player_joined"):
    event: int
    player: Player


class PlayerLeft(ServerFrame, tag="player_left"):
    event: int
    player: int
    connected: bool


class Host(ServerFrame, tag="host"):
    event: int
    player: int


class Countdown(ServerFrame, tag="countdown"):
    event: int
    starts_at: int
    players: list[int]


class Started(ServerFrame, tag="started"):
    event: int
    started_at: int
    ends_at: Ms


class Progress(ServerFrame, tag="progress"):
    event: int
    player: int
    seq: int | None
    kind: Literal["move", "undo", "resign", "abandon"]
    score: int
    moves: int
    cards_left: int
    status: str
    slots: list[str]
    heights: list[int]
    finished_at: Ms


class Finished(ServerFrame, tag="finished"):
    event: int
    finished_at: int
    standings: list[Standing]
    deal: str | None
    splits: list[Split] | UnsetType = UNSET


class Rematch(ServerFrame, tag="rematch"):
    event: int
    room: str
    url: str


class Requeued(ServerFrame, tag="requeued"):
    event: int
    players: list[int]


# --- an event's standings socket ------------------------------------------------------


class Standings(ServerFrame, tag="standings"):
    id: int
    at: int
    over: bool
    players: int
    top: list[EventLine]


class StandingsYou(ServerFrame, tag="standings_you"):
    rank: int | None
    players: int
    you: int
    near: list[EventLine]


FRAMES = (
    State,
    PlayerJoined,
    PlayerLeft,
    Host,
    Countdown,
    Started,
    Moved,
    Rejected,
    Progress,
    Finished,
    Rematch,
    Requeued,
    GhostFrame,
    Pong,
    Error,
    Standings,
    StandingsYou,
)
"""Every server frame, in docs/protocol.md's order."""
TYPES = {frame.__struct_config__.tag: frame for frame in FRAMES}
_ANY = Union[FRAMES]  # noqa: UP007 - a union of a tuple of types


def check(frame):
    """`frame` (a dict as frames.py builds it) as its declared Struct, or
    msgspec.ValidationError saying which field is wrong, missing or not declared."""
    return msgspec.convert(frame, _ANY)
