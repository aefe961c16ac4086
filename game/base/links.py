"""
Links a page repeats on every row (a player's profile, a day's board): Django's
`reverse()` walks the URL resolver each time, and a records board's 102 of them were a
third of its rendering (cProfile on bench/friends_boards.py's database). So a route
with one `str` argument is reversed once per script prefix, and each row's value only
quoted, as `reverse()` quotes it (a race's room code put in as it is: `room_url`); and
a link every page or board repeats with the same arguments (the header's, a board's
tabs) is reversed once (`route`).
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


@functools.cache
def _around_room(name, prefix, urlconf):
    parts = reverse(name, args=[_ROOM_HOLE], urlconf=urlconf).split(_ROOM_HOLE)
    return parts if len(parts) == 2 else None


def room_url(name, room):
    """`reverse(name, args=[room])` for a route whose one argument is a `<room:…>` (a
    race): reversed once per script prefix, each code put in as its converter puts it,
    as it is (a profile's 100 games link to their races)."""
    around = _around_room(name, get_script_prefix(), get_urlconf())
    if around is None or not re.fullmatch(rooms.RoomConverter.regex, room):
        return reverse(name, args=[room])
    before, after = around
    return f"{before}{room}{after}"
