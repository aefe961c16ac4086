"""Template filters of the game pages."""

from django import template
from django.utils.translation import gettext

from game.players.identity import DEFAULT_NAME

register = template.Library()


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
