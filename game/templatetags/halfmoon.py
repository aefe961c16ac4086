"""Template filters of the game pages: each says in one call what a board or history
row would otherwise say with an include or a `{% url %}` per row (bench/friends_boards.py)."""

from django import template
from django.utils.translation import gettext, gettext_lazy, ngettext

from game.base import links
from game.models import Entry, Race
from game.players.identity import DEFAULT_NAME
from game.ratings import ranks

register = template.Library()

STATUS_WORDS = {
    Entry.WON: gettext_lazy("won"),
    Entry.BLOCKED: gettext_lazy("blocked"),
    Entry.RESIGNED: gettext_lazy("resigned"),
    Entry.TIMED_OUT: gettext_lazy("out of time"),
    Entry.ABANDONED: gettext_lazy("left the race"),
    Entry.PLAYING: gettext_lazy("playing"),
}
"""A result's status as a row says it (any other: "waiting")."""


@register.filter
def duration(ms):
    """Milliseconds as the info bar shows them: 83000 -> "1:23", 3723000 -> "1:02:03"."""
    if ms is None or ms == "":
        return "—"
    total = max(0, int(ms) // 1000)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@register.filter
def player_name(name):
    """A player's name; the name given to one who chose none reads in the page's language."""
    return gettext("Player") if name == DEFAULT_NAME else name


@register.filter
def link(value, route):
    """`{{ name|link:"game:profile" }}`: `{% url route value %}`, reversed once a page."""
    return links.url(route, value)


@register.filter
def status_word(status):
    """A result's status in the reader's language: won, resigned, out of time, …"""
    return str(STATUS_WORDS.get(status) or gettext("waiting"))


@register.filter
def signed(change):
    """A rating's change: "+12", "−9" or "±0"."""
    return ranks.signed(change)


@register.filter
def mode_name(mode):
    return str(Race.MODE_NAMES.get(mode, mode))


@register.filter
def record_figure(line, board):
    """A records board line's figure: a best time, a run of days, or daily deals won."""
    value = line["value"]
    if board == "times":
        return duration(value)
    if board == "streaks":
        return ngettext("%(days)s day", "%(days)s days", value) % {"days": value}
    return value
