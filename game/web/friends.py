"""
The friends' JSON API: follow and block an account, challenge one you follow, and the
poll that shows a player their challenges (/api/follows/, /api/blocks/,
/api/challenges/). Views only translate: the rules are game/friends/'s, the errors
the JSON API's (game/web/api.py). The poll is rate-limited like the quick race's;
every change (follow, block and their undoing, a challenge sent, declined or
cancelled) counts against the "social" limit per player and per address (a script
toggled a follow 200 times in 4 s), and accepting one as creating a race.
"""

from django.http import JsonResponse
from django.views.decorators.http import require_http_methods

from game.base import limits
from game.base.errors import GameError
from game.friends import challenges, follows
from game.players import identity
from game.web import bodies
from game.web.api import api


def _pair(request, username):
    """The asking account and the account named `username`, never the same one (an
    unfollow or unblock of oneself is refused as a follow or block of oneself is)."""
    user = follows.signed_in(request.user)
    other = follows.account_of(username)
    follows.not_yourself(user, other)
    return user, other


def _social(request):
    """One change to the friends' lists or challenges, counted: GameError past the limit."""
    limits.spend(request, "social", identity.player_key(request.session))


def _switch(request, username, on, off):
    """`on` for a POST, `off` for a DELETE, between you and `username`; the relation after."""
    user, other = _pair(request, username)
    _social(request)
    (on if request.method == "POST" else off)(user, other)
    return JsonResponse({"name": other.get_username(), **follows.relation(user, other)})


@require_http_methods(["POST", "DELETE"])
@api
def api_follow(request, body, username):
    """POST: follow `username`; DELETE: stop following. Answers the relation."""
    return _switch(request, username, follows.follow, follows.unfollow)


@require_http_methods(["POST", "DELETE"])
@api
def api_block(request, body, username):
    """POST: block `username` (the follows between you end); DELETE: unblock."""
    return _switch(request, username, follows.block, follows.unblock)


@require_http_methods(["GET", "HEAD", "POST"])
@api(body=bodies.Challenge)
def api_challenges(request, body):
    """GET: the poll, {received, sent}; POST {name}: challenge an account you follow."""
    user = follows.signed_in(request.user)
    if request.method in ("GET", "HEAD"):
        limits.spend(request, "poll", identity.player_key(request.session))
        return JsonResponse(challenges.inbox(user))
    name = body.name
    _social(request)
    sent = challenges.send(user, follows.account_of(name))
    return JsonResponse(
        {"id": sent.id, "name": name, "expires_in_s": challenges.OPEN_S}, status=201
    )


ANSWERS = {"accept", "decline", "cancel"}


@require_http_methods(["POST"])
@api
def api_answer(request, body, challenge, answer):
    """Accept (201 {room, url, ws}: both are in the race), decline or cancel a challenge."""
    user = follows.signed_in(request.user)
    if answer not in ANSWERS:
        raise GameError("not_found", f"a challenge is answered with one of {sorted(ANSWERS)}")
    if answer == "accept":
        limits.spend(request, "create", identity.player_key(request.session))
        race = challenges.accept(user, challenge)
        links = {"room": race.room, "url": race.get_absolute_url(), "ws": race.ws_path}
        return JsonResponse(links, status=201)
    _social(request)
    if answer == "decline":
        challenges.decline(user, challenge)
        return JsonResponse({"id": challenge, "status": "declined"})
    challenges.cancel(user, challenge)
    return JsonResponse({"id": challenge, "status": "cancelled"})
