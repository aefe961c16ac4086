"""
The one place a page's rows are filled into markup by Python, where the boards' speed
needs it (templatetags/halfmoon.py: a board's 50 rows, filter by filter and include by
include, were a third of its time, bench/friends_boards.py). Every value is escaped as
autoescaping would, unless it is a number or markup made here (`safe`); `format_html`
does the same through Django's lazy-string wrappers at six times the cost.
"""

import html
import re

from django.utils.safestring import SafeData, mark_safe


class Markup(str):
    """A fragment made here (`safe`): `text` writes it as it is."""

    __slots__ = ()


SPECIAL = re.compile("[&<>\"']")
"""What escaping changes; most of a board's texts (times, names, words) hold none of it."""


def text(value, escape=html.escape, special=SPECIAL.search):
    """`value` as HTML text: markup made here or a number as it is (`format_map` writes
    it), the rest escaped (a plain string, most values, tested first)."""
    kind = type(value)
    if kind is str:
        return escape(value) if special(value) else value
    if kind is Markup or kind is int or kind is float:
        return value
    if isinstance(value, SafeData):
        return str(value)
    return escape(str(value))


def safe(pattern, **values):
    """One fragment: `pattern` filled with `values`, each through `text`."""
    return Markup(pattern.format_map({name: text(v) for name, v in values.items()}))


def fill(pattern, rows):
    """`pattern` filled once for each row (a dict of its values, each through `text`),
    joined: safe markup."""
    fill_in = pattern.format_map
    filled = "".join([fill_in({name: text(v) for name, v in row.items()}) for row in rows])
    return mark_safe(filled)  # noqa: S308 - every value through `text`
