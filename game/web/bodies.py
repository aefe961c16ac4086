"""
Every JSON request body of the API, declared once as a msgspec Struct: the views of
game/web/api.py and game/web/friends.py name theirs (`@api(body=...)`) and get it
decoded, or the request is refused with a code of the one registry
(game/base/errors.py) and the message `refusals` gives for the field at fault, never
a 500. docs/protocol.md's "HTTP API" table is held to these by tests/race/test_schema.py.

A field a body does not declare is ignored, as a frame's is; a body no view reads
(`Empty`) must still be one JSON object.
"""

from typing import Annotated, ClassVar, Literal

from msgspec import Meta, Struct, field

from game.models import NAME_MAX

NAME = {"name": ("bad_name", f"a name has 1 to {NAME_MAX} printable characters")}
"""A player's display name, wherever a body has one: trimmed and checked by
`protocol.clean_name` once decoded, as a `join` frame's is."""


class Body(Struct, frozen=True):
    """A request body: one JSON object."""

    refusals: ClassVar[dict] = {}
    """The (code, message) a field at fault is refused with; any other: `bad_field`."""


class Empty(Body):
    """A body no view reads (a follow, a block, a restart, an answer to a challenge)."""


class NewRace(Body):
    """POST /api/races/: a race on a deal, alone (`solo`) or not."""

    deal: str = "random"
    solo: bool = False
    name: str | None = None
    refusals: ClassVar[dict] = {
        "deal": ("bad_field", "deal is a code, 'random' or 'daily'; solo is a boolean"),
        "solo": ("bad_field", "deal is a code, 'random' or 'daily'; solo is a boolean"),
        **NAME,
    }


class DailyGhost(Body):
    """POST /api/daily/<date>/ghost/: race that day's leader or one's own best."""

    of: Literal["leader", "best"]
    name: str | None = None
    refusals: ClassVar[dict] = {"of": ("bad_field", "of is 'leader' or 'best'"), **NAME}


class Quick(Body):
    """POST /api/quick/: a poll of the quick-race queue, casual or rated."""

    rated: bool = False
    name: str | None = None
    refusals: ClassVar[dict] = {"rated": ("bad_field", "rated is a boolean"), **NAME}


class QuickGhost(Body):
    """POST /api/quick/ghost/: race the recorded game offered while waiting alone."""

    ghost: Annotated[int, Meta(ge=1, le=2**63 - 1)]
    name: str | None = None
    refusals: ClassVar[dict] = {
        "ghost": ("bad_field", "ghost is the id of the recorded game offered"),
        **NAME,
    }


class Challenge(Body):
    """POST /api/challenges/: challenge an account one follows, by its username."""

    name: Annotated[str, Meta(min_length=1)]
    refusals: ClassVar[dict] = {
        "name": ("bad_field", "name is the username of the account to challenge")
    }


class PushKeys(Struct, frozen=True):
    """A push subscription's keys, as the browser's `toJSON()` gives them (base64url)."""

    p256dh: Annotated[str, Meta(max_length=200)]
    auth: Annotated[str, Meta(max_length=100)]


class PushAddress(Struct, frozen=True):
    """A browser's push subscription: where its push service takes messages for it."""

    endpoint: Annotated[str, Meta(min_length=1, max_length=1000)]
    keys: PushKeys


class PushDevice(Body):
    """POST /api/push/: this device's reminders turned on, or changed (game/reminders/)."""

    subscription: PushAddress | None = None
    kinds: dict[str, bool] = field(default_factory=dict)
    hour: Annotated[int, Meta(ge=0, le=23)] = 9
    time_zone: Annotated[str, Meta(max_length=64)] = "UTC"
    refusals: ClassVar[dict] = {
        "subscription": ("bad_field", "subscription: the Push API's {endpoint, keys}"),
        "kinds": ("bad_field", "kinds: {daily, events, challenges, leagues: true/false}"),
        "hour": ("bad_field", "hour: the local hour of the daily reminder, 0-23"),
        "time_zone": ("bad_field", "time_zone: an IANA time zone such as Europe/Paris"),
    }


class PushForget(Body):
    """POST /api/push/forget/: this device's reminders off."""

    endpoint: Annotated[str, Meta(min_length=1, max_length=1000)]
    refusals: ClassVar[dict] = {"endpoint": ("bad_field", "endpoint: the subscription's")}


BODIES = (Empty, NewRace, DailyGhost, Quick, QuickGhost, Challenge, PushDevice, PushForget)
