"""
The one place a page's rows are filled into markup by Python, where the boards' speed
needs it (templatetags/halfmoon.py: a board's 50 rows, filter by filter and include by
include, were a third of its time, bench/friends_boards.py). Every value is escaped as
autoescaping would, unless it is a number or markup made here (`safe`); `format_html`
does the same through Django's lazy-string wrappers at six times the cost.
"""

import html

from django.utils.safestring import SafeData, mark_safe


def text(value):
    """`value` as HTML text: markup made here as it is, a number written, the rest escaped."""
    if isinstance(value, SafeData) or type(value) in (int, float):
        return str(value)
    return html.escape(str(value))


def safe(pattern, **values):
    """One fragment: `pattern` filled with `values`, each through `text`; safe markup."""
    return mark_safe(pattern.format_map({name: text(v) for name, v in values.items()}))  # noqa: S308


def fill(pattern, rows):
    """`pattern` filled once for each row (a dict of its values, each through `text`),
    joined: safe markup."""
    filled = (pattern.format_map({name: text(v) for name, v in row.items()}) for row in rows)
    return mark_safe("".join(filled))  # noqa: S308 - every value through `text`
