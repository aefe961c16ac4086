"""
A month's calendar of days (game/habits/calendar.py) as one tag, for the archive, the
daily page and the profile: the same grid drawn by the template, cell by cell, took
about 10 ms a page (five tags and a `{% url %}` a day), as much as the rest of /daily/.
"""

from django import template
from django.template.defaultfilters import date
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from game.base import links
from game.web.markup import text as escaped

register = template.Library()

GLYPHS = {"won": "●", "played": "◐", "later": "○", "later-won": "○", "freeze": "❄"}
"""Each mark's glyph, beside its words for a screen reader (a colour alone says nothing)."""


def _words():
    """Each mark in the reader's language, said once a page."""
    return {
        "won": gettext("won"),
        "played": gettext("played"),
        "later-won": gettext("won later"),
        "later": gettext("played later"),
        "freeze": gettext("a streak freeze spent"),
        "future": gettext("to come"),
        "today": gettext("today, not played yet"),
        "": gettext("not played"),
    }


@register.simple_tag
def day_calendar(calendar, caption, boards=False, later=False, freeze=False):
    """The calendar as a table, each day linked to its board with `boards`, and the legend
    of its marks (`later`: games played later; `freeze`: freezes spent)."""
    words = _words()
    heads = "".join(
        f'<th scope="col"><abbr title="{escaped(date(day, "l"))}">'
        f"{escaped(date(day, 'D'))}</abbr></th>"
        for day in calendar["weekdays"]
    )
    rows = "".join(
        "<tr>" + "".join(_cell(cell, words, boards) for cell in week) + "</tr>"
        for week in calendar["weeks"]
    )
    table = (
        f'<table class="day-calendar"><caption>{escaped(caption)}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    )
    return mark_safe(table + _legend(words, later, freeze))  # noqa: S308 - escaped above


def _cell(cell, words, boards):
    if cell is None:
        return '<td class="day-outside"></td>'
    day, mark = cell["date"], cell["mark"]
    said = words["today"] if cell["today"] and not mark else words[mark]
    number = str(day.day)
    if boards and cell.get("board"):
        number = f'<a href="{escaped(links.url("game:leaderboard", day.isoformat()))}">{number}</a>'
    else:
        number = f'<span class="day-number">{number}</span>'
    today = ' day-today" aria-current="date' if cell["today"] else ""
    return (
        f'<td class="day-mark-{mark or "none"}{today}" data-day="{day.isoformat()}"'
        f' data-mark="{mark}">{number}<span class="day-glyph" aria-hidden="true">'
        f'{GLYPHS.get(mark, "")}</span><span class="visually-hidden">{escaped(said)}</span></td>'
    )


def _legend(words, later, freeze):
    shown = ["won", "played"] + (["later"] if later else []) + (["freeze"] if freeze else [])
    keys = "".join(
        f'<span class="day-mark-{mark}"><span aria-hidden="true">{GLYPHS[mark]}</span>'
        f" {escaped(words[mark])}</span> "
        for mark in shown
    )
    return f'<p class="day-legend">{keys.strip()}</p>'
