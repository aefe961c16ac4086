"""The friends' parts of a page: a profile's follow lists and buttons, and the
challenges box of the lobby and the profile. They show what the view read
(game/web/profiles.py `friends_panel`) and run no query (tests/test_structure.py)."""

from django import template

register = template.Library()


@register.inclusion_tag("game/friends_panel.html")
def friends_panel(panel):
    """A profile's followers and following, and what the viewer may do about its account:
    the view's `friends_panel`."""
    return panel


@register.inclusion_tag("game/challenges.html", takes_context=True)
def challenges_box(context):
    """The box where a signed-in player's challenges appear (filled by challenges.js)."""
    return {"user": context["request"].user}
