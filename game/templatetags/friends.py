"""The friends' parts of a page: a profile's follow lists and buttons, and the
challenges box of the lobby and the profile (game/friends/)."""

from django import template

from game.friends import follows

register = template.Library()


@register.inclusion_tag("game/friends_panel.html", takes_context=True)
def friends_panel(context, account):
    """A profile's followers and following, and what the viewer may do about `account`."""
    viewer = context["request"].user
    if account is None:
        return {"account": None}
    return {
        "account": account,
        "lists": follows.lists(account),
        "relation": follows.relation(viewer, account),
        "viewer": viewer,
    }


@register.inclusion_tag("game/challenges.html", takes_context=True)
def challenges_box(context):
    """The box where a signed-in player's challenges appear (filled by challenges.js)."""
    return {"user": context["request"].user}
