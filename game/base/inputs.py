"""
Input read once, the same way wherever it arrives: a JSON object (a websocket frame
or an API body, each at most 4 KiB) decoded straight into the type its schema declares
(`Reader`), a date in a URL, a board's page number, a log-in name.

Bad input is a clear refusal here (a coded GameError or a 404), never a 500 further in.
"""

import datetime
import re
import unicodedata

import msgspec
import orjson
from django.http import Http404
from django.utils.translation import gettext, gettext_noop

from game.base.errors import GameError

MAX_JSON_BYTES = 4096
"""A frame or a request body is at most this many bytes (UTF-8)."""


def json_object(data, what):
    """`data` (str or bytes) as one JSON object, or GameError `too_large` / `bad_json`;
    `what` names it in the message ("a frame", "a request body")."""
    _within_size(data, what)
    try:  # orjson: a quarter of json.loads's time for a move's frame (0.55 µs, not 2)
        value = orjson.loads(data)
    except ValueError:  # orjson.JSONDecodeError, nesting over 1,024 deep included
        raise GameError("bad_json", f"{what} is one JSON object") from None
    if not isinstance(value, dict):
        raise GameError("bad_json", f"{what} is one JSON object")
    return value


def _within_size(data, what):
    if len(data) > MAX_JSON_BYTES or (
        isinstance(data, str) and len(data.encode()) > MAX_JSON_BYTES
    ):
        raise GameError("too_large", f"{what} is at most {MAX_JSON_BYTES} bytes")


_FIELD = re.compile(r"at `\$\.(\w+)|missing required field `(\w+)`")
"""The top-level field a msgspec validation error names (its path, or the one missing)."""


class Reader:
    """A JSON object (str or bytes) decoded into `schema` (a msgspec Struct, or a tagged
    union of them) in one pass, or a GameError from the one registry: `too_large` and
    `bad_json` as `json_object` says them, else the code and message `refusals` gives
    the field at fault (a field it does not name: `bad_field` with msgspec's own words).

    `kinds`: the members of a tagged union this reader takes (every one by default); any
    other type is refused as `refusals["type"]` says, however its other fields look."""

    def __init__(self, schema, what, refusals=None, kinds=None):
        self.decoder = msgspec.json.Decoder(schema)
        self.what = what
        self.refusals = refusals or {}
        for code, _ in self.refusals.values():
            GameError(code, "")  # an unregistered code fails here, at import
        self.kinds = None if kinds is None else tuple(kinds)
        self.tags = None if kinds is None else {kind.__struct_config__.tag for kind in kinds}

    def read(self, data):
        _within_size(data, self.what)
        try:
            value = self.decoder.decode(data)
        except (msgspec.DecodeError, RecursionError):
            raise self.refused(data) from None
        except GameError:  # a field's own check (a name's), unless the type is not taken
            if not self.takes(json_object(data, self.what)):
                raise self.refusal("type") from None
            raise
        if self.kinds is not None and not isinstance(value, self.kinds):
            raise self.refusal("type")
        return value

    def refused(self, data):
        """Why `data` did not decode, said on the slow path: what is no JSON object is
        `json_object`'s refusal, a type this reader does not take the `type` refusal,
        else the refusal of the first field msgspec found at fault."""
        value = json_object(data, self.what)
        try:
            self.decoder.decode(data)
            reason = None
        except msgspec.ValidationError as exc:
            reason = str(exc)
        except (msgspec.DecodeError, RecursionError):
            reason = None  # deeper than msgspec nests, not than orjson does
        if reason is None:
            return GameError("bad_json", f"{self.what} is one JSON object")
        if not self.takes(value):
            return self.refusal("type")
        found = _FIELD.search(reason)
        return self.refusal(found and (found[1] or found[2]), reason)

    def refusal(self, field, reason=None):
        """The GameError for `field` at fault: `refusals`'s, else `bad_field` and msgspec's
        `reason`."""
        code, message = self.refusals.get(field, ("bad_field", f"{self.what}: {reason}"))
        return GameError(code, message)

    def takes(self, value):
        """Whether this reader takes the type of `value` (a dict), whatever its fields."""
        kind = value.get("type")
        return self.tags is None or (isinstance(kind, str) and kind in self.tags)


EARLIEST = datetime.date(1900, 1, 1)
"""No URL names a day before this, long before any deal (a day with none is a 404 that
says so, 1999-01-01 too)."""
LATEST = datetime.date(9998, 12, 31)
"""Nor after this, so that the day, week or month after any named one is a date too."""


def date_or_404(text):
    """The date a URL names (2026-11-29), or a 404 that says how a date looks."""
    return _within(
        _parse(datetime.date.fromisoformat, text), gettext_noop("A date looks like 2026-11-29.")
    )


def month_or_404(text):
    """ "2026-11" -> date(2026, 11, 1), or a 404 that says how a month looks."""
    return _within(_parse(_month, text), gettext_noop("A month looks like 2026-11."))


def week_or_404(text):
    """ "2026-W48" -> the Monday of that ISO week, or a 404 that says how a week looks."""
    return _within(_parse(_week, text), gettext_noop("A week looks like 2026-W48."))


def _month(text):
    year, month = text.split("-")
    return datetime.date(_number(year), _number(month), 1)


def _week(text):
    year, week = text.split("-W")
    return datetime.date.fromisocalendar(_number(year), _number(week), 1)


def _number(text):
    """A year, month or week: up to four ASCII digits (int() takes "١٢", "+1", " 1")."""
    if not (text.isascii() and text.isdigit() and len(text) <= 4):
        raise ValueError(text)
    return int(text)


def _parse(parse, text):
    try:
        return parse(text)
    except (ValueError, OverflowError):  # year 0 or 10000, week 54, 20 digits
        return None


def _within(date, how):
    """`date` if a URL may name it, else a 404 saying `how` a good one looks: none
    before EARLIEST or after LATEST, so no view's next or previous page overflows."""
    if date is None or not EARLIEST <= date <= LATEST:
        raise Http404(gettext(how))
    return date


def page_number(request):
    """The `page` a board asks for, 1 unless it is a sensible page number."""
    page = request.GET.get("page", "1")
    sensible = len(page) <= 4 and page.isascii() and page.isdigit()  # int() refuses "²"
    return int(page) if sensible and int(page) > 0 else 1


def board_view(request):
    """Whose rows a board shows: "friends" (the accounts one follows, and oneself) when
    asked, else "everyone"."""
    return "friends" if request.GET.get("view") == "friends" else "everyone"


def login_name(text):
    """The one form a log-in name is compared in, at sign-up, log-in and the log-in
    throttle alike: NFKC (full-width letters are letters), trimmed of whitespace (a
    non-breaking space, a tab or a newline too) and case-folded. " Victim", "victim\n"
    and "ｖｉｃｔｉｍ" are all "victim": one name, one lock."""
    return unicodedata.normalize("NFKC", str(text)).strip().casefold()
