"""
Reminders' page and API: /me/reminders/ (turn web push on for this device, pick what
to be reminded of and the daily hour), the device's settings saved and forgotten
through /api/push/, and the events as calendars (.ics) for those who would rather
have their calendar remind them. Views only translate: game/reminders/ decides.
"""

import msgspec
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_safe

from game.base import limits
from game.base.errors import GameError
from game.players import identity
from game.reminders import push, subscriptions
from game.web import bodies
from game.web.api import api

HOURS = range(24)


@require_safe
@ensure_csrf_cookie
def page(request):
    """/me/reminders/: the device's reminders (its browser's subscription read by the page)."""
    context = {
        "enabled": push.enabled(),
        "public_key": push.public_key() if push.enabled() else "",
        "hours": HOURS,
        "kinds": subscriptions.KINDS,
        "signed_in": request.user.is_authenticated,
    }
    return render(request, "game/reminders.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@api(body=bodies.PushDevice)
def device(request, body):
    """GET ?endpoint=: what this device asked for (404 when nothing); POST: save it."""
    key = identity.player_key(request.session)
    if request.method == "POST":
        limits.spend(request, "social", key)  # as follows and challenges are
        user = request.user if request.user.is_authenticated else None
        asked = msgspec.to_builtins(body)
        found = subscriptions.save(key, user, asked, translation.get_language() or "en")
        return JsonResponse(_settings(found), status=201)
    found = subscriptions.of(key, request.GET.get("endpoint", ""))
    if found is None:
        raise GameError("not_found", "this device has no reminders")
    return JsonResponse(_settings(found))


@require_http_methods(["POST"])
@api(body=bodies.PushForget)
def forget(request, body):
    """POST {endpoint}: this device's reminders off."""
    removed = subscriptions.forget(identity.player_key(request.session), body.endpoint)
    return JsonResponse({"removed": removed})


def _settings(found):
    return {
        **{kind: getattr(found, kind) for kind in subscriptions.KINDS},
        "hour": found.daily_hour,
        "time_zone": found.time_zone,
    }
