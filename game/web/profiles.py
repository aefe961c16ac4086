"""
Players come back: an account's profile (/players/<username>/) and a guest's own page
(/me/). The figures are game/players/profiles.py's and game/players/player_ratings.py's; the
friends' panel (follow lists, what the viewer may do, the head to head with its replays)
is read here, so the template tags that show it run no query.
"""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.base import days
from game.friends import follows, head_to_head
from game.habits import streaks
from game.leagues import groups
from game.models import NAME_MAX, Entry, EventEntry
from game.players import history_chart, identity, moderation, player_ratings, profiles
from game.replays import watch


def friends_panel(viewer, account):
    """A profile's followers and following, and what the viewer may do about `account`."""
    if account is None:
        return {"account": None}
    relation = follows.relation(viewer, account)
    following = relation and relation["following"]
    return {
        "account": account,
        "lists": follows.lists(account),
        "relation": relation,
        "viewer": viewer,
        "head_to_head": _head_to_head(viewer, account) if following else None,
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


def _page(request, entries, title, account, events):
    games = profiles.history(entries)
    played, won = profiles.daily_days(entries)
    context = {
        "title": title,
        "account": account,
        "stats": profiles.stats(entries, (played, won)),
        "calendar": profiles.month_calendar(played, won, days.today()),
        "freeze_every": streaks.FREEZE_EVERY,
        "freezes_most": streaks.FREEZES_HELD,
        "events": profiles.event_record(events),
        "games": games,
        "chart": history_chart.chart(list(reversed(games))),
        "rating": player_ratings.rating_of(account) if account else None,
        "rating_history": player_ratings.history(account) if account else [],
        "league": groups.summary(account) if account else None,
        "friends_panel": friends_panel(request.user, account),
    }
    return render(request, "game/profile.html", context)


@require_safe
def profile(request, username):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise Http404(gettext("There is no player %(name)s.") % {"name": username[:NAME_MAX]})
    events = EventEntry.objects.filter(user=user)
    title = user.get_username()
    if user != request.user and moderation.hidden_users([user.pk]):
        title = moderation.hidden_label()  # its owner still reads their own
    return _page(request, Entry.objects.filter(user=user), title, user, events)


@require_safe
def me(request):
    """Your own page: your account's profile, or a guest's games in this session."""
    if request.user.is_authenticated:
        return profile(request, request.user.get_username())
    key = identity.viewer_key(request.session)
    events = EventEntry.objects.filter(player_key=key)
    return _page(request, Entry.objects.filter(player_key=key), gettext("My games"), None, events)
