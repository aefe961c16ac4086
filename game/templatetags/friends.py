"""The friends' parts of a page: a profile's follow lists and buttons, and the
challenges box of the lobby and the profile (game/friends/)."""

from django import template

from game.friends import follows, head_to_head
from game.replays import watch

register = template.Library()


@register.inclusion_tag("game/friends_panel.html", takes_context=True)
def friends_panel(context, account):
    """A profile's followers and following, and what the viewer may do about `account`."""
    viewer = context["request"].user
    if account is None:
        return {"account": None}
    relation = follows.relation(viewer, account)
    return {
        "account": account,
        "lists": follows.lists(account),
        "relation": relation,
        "viewer": viewer,
        "head_to_head": _head_to_head(viewer, account)
        if relation and relation["following"]
        else None,
    }


def _head_to_head(viewer, account):
    """The viewer's tally against a player they follow, the latest races with replays."""
    found = head_to_head.record(viewer, account)
    if found is not None:
        found["latest"] = [
            {"entry": entry, "score": score, "replay": watch.url(entry)}
            for entry, score in found["latest"]
        ]
    return found


@register.inclusion_tag("game/challenges.html", takes_context=True)
def challenges_box(context):
    """The box where a signed-in player's challenges appear (filled by challenges.js)."""
    return {"user": context["request"].user}
