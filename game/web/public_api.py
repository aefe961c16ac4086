"""
The public read-only JSON API (docs/api.md): what pages show anyone anyway — a
player's profile, rating and recent rated games; the rating board. Each GET is
rate-limited per player and client address like the rest (game/base/limits.py,
"read"), and answers the same numbers as the pages, from the same functions
(game/players/profiles.py, game/players/ratings.py).
"""

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_safe

from game.base import limits
from game.leagues import groups
from game.models import Entry
from game.players import identity, profiles, ratings
from game.race.frames import ms
from game.web.api import api


def _spend(request):
    limits.spend(request, "read", identity.viewer_key(request.session))


@require_safe
@api
def api_player(request, body, username):
    """An account's profile: statistics, rating, rated record and recent rated games."""
    _spend(request)
    user = ratings.user_named(username)
    if user is None:
        raise Http404(f"there is no player {username[:40]}")
    stats = profiles.stats(Entry.objects.filter(user=user))
    history = [{**line, "at": ms(line["at"])} for line in ratings.history(user)]
    return JsonResponse(
        {
            "username": user.get_username(),
            "url": f"/players/{user.get_username()}/",
            **ratings.rating_of(user),
            "stats": stats,
            "history": history,
            "league": groups.summary(user),
        }
    )


@require_safe
@api
def api_ratings(request, body):
    """The rating board: the top 100 and, for an account, its own line."""
    _spend(request)
    viewer = request.user if request.user.is_authenticated else None
    lines, you = ratings.board(viewer)
    return JsonResponse({"entries": lines, "you": you})
