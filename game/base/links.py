"""
Links a page repeats on every row (a player's profile, a day's board): Django's
`reverse()` walks the URL resolver each time, and a records board's 102 of them were a
third of its rendering (cProfile on bench/friends_boards.py's database). So a route
with one `str` argument is reversed once per script prefix, and each row's value only
quoted, as `reverse()` quotes it (a race's room code, and a replay's number, put in as
they are: `room_url`, `room_route` for a page of them); and a link every page or board
repeats with the same arguments (the header's, a board's tabs) is reversed once
(`route`).
"""

import functools
import re
from urllib.parse import quote

from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.http import RFC3986_SUBDELIMS

from game.base import rooms

_HOLE = "\x1f"
"""A character no username or date holds: where the value goes in the reversed route."""
_SAFE = RFC3986_SUBDELIMS + "/~:@"
"""What `reverse()` leaves unquoted in a path (django/urls/resolvers.py)."""


@functools.cache
def _around(name, prefix, urlconf):
    """The route's URL before and after its one argument, under this script prefix."""
    before, after = reverse(name, args=[_HOLE], urlconf=urlconf).split(quote(_HOLE))
    return before, after


def url(name, value):
    """`reverse(name, args=[value])` for a route whose one argument is a `str` path
    segment (a username, a date); any other value goes through `reverse()` itself."""
    value = str(value)
    if not value or "/" in value or _HOLE in value:
        return reverse(name, args=[value])
    before, after = _around(name, get_script_prefix(), get_urlconf())
    return f"{before}{quote(value, safe=_SAFE)}{after}"


@functools.lru_cache(maxsize=1024)
def _route(name, args, prefix, urlconf):
    return reverse(name, args=args, urlconf=urlconf)


def route(name, *args):
    """`reverse(name, args=args)`, reversed once per script prefix for the same arguments:
    the header's links on every page, a board's tabs and its periods before and after
    (20 reversals a board's page, 22 µs each)."""
    return _route(name, args, get_script_prefix(), get_urlconf())


_ROOM_HOLE = "Z" * rooms.LENGTH
"""A room code no route's fixed text holds: where the code goes in the reversed route."""
_ROOM = re.compile(rooms.RoomConverter.regex)
_NUMBER_HOLE = "8642097531"
"""A number no route's fixed text holds: where an `<int:…>` argument goes (a digit
after it says which)."""


@functools.cache
def _room_template(name, numbers, prefix, urlconf):
    """The reversed route as a `str.format` template, "{}" where each argument goes (a
    brace of its fixed text `reverse()` quotes), or None if the holes are not found once
    each and in the arguments' order."""
    holes = [_ROOM_HOLE, *(f"{_NUMBER_HOLE}{n}" for n in range(numbers))]
    reversed_url = reverse(name, args=holes, urlconf=urlconf)
    parts = re.split("|".join(holes), reversed_url)
    template = "{}".join(parts)
    found = len(parts) == len(holes) + 1 and template.format(*holes) == reversed_url
    return template if found else None


def room_route(name, numbers=0):
    """`room_url` of one route for a page of rows: a function of (room, *numbers), the
    route and its script prefix looked up once (each a context-local read)."""
    template = _room_template(name, numbers, get_script_prefix(), get_urlconf())

    def url(room, *args):
        if (
            template is None
            or not _ROOM.fullmatch(room)
            or not all(type(n) is int and n >= 0 for n in args)
        ):
            return reverse(name, args=[room, *args])
        return template.format(room, *args)

    return url


def room_url(name, room, *numbers):
    """`reverse(name, args=[room, *numbers])` for a route whose first argument is a
    `<room:…>` (a race) and any others `<int:…>`: reversed once per script prefix, the
    code put in as its converter puts it, as it is, and each number as `int` writes it
    (a profile's 100 games link to their races, a day's board's 51 rows to replays)."""
    return room_route(name, len(numbers))(room, *numbers)
