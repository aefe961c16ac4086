"""
One throttle on log-in failures, for every log-in form: the players'
(/accounts/login/) and the admin's (/admin/login/) count together.

After `HALFMOON_LOGIN_FAILURES` failed log-ins within `HALFMOON_LOGIN_WINDOW_S`
from one client address, or for one username from any addresses, a log-in from
that address or for that username is refused (429) before its password is even
checked, until the window has passed: guessing a password costs hours, not
seconds, from one address or from many. A username is counted and checked in its
one form (game/base/inputs.py `login_name`): " victim", "VICTIM" and full-width
letters are victim's lock too. (The price: whoever keeps failing for a
username keeps its owner out too, a window at a time.)

Failures are counted in Django's cache, which is Redis whenever `REDIS_URL` is
set, so all server processes count together. The address is the client's by
the one rule of game/base/clients.py.
"""

import functools
import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse

from game.base.clients import request_address
from game.base.inputs import login_name


def _keys(request, username):
    """The counts a log-in draws on: its client address's, and its username's if given
    (hashed: a key of any text), the same for every way of writing the name: the lock
    is checked on the name as posted, a failure counted on the name the form cleaned."""
    keys = [f"login-failures:address:{request_address(request)}"]
    if username and login_name(username):
        digest = hashlib.sha256(login_name(username).encode()).hexdigest()
        keys.append(f"login-failures:user:{digest}")
    return keys


def count_failure(sender, credentials, request=None, **kwargs):
    """A log-in failed: one more for its address and its username (connected to
    `user_login_failed` by game/apps.py)."""
    if request is None:
        return
    window = settings.HALFMOON_LOGIN_WINDOW_S
    for key in _keys(request, credentials.get("username")):
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # ran out between the two calls
            cache.set(key, 1, timeout=window)


def locked(request):
    """Whether this log-in request's address or username has failed too often lately."""
    counts = cache.get_many(_keys(request, request.POST.get("username")))
    return any(count >= settings.HALFMOON_LOGIN_FAILURES for count in counts.values())


def throttled(login_view):
    """`login_view`, refusing POSTs whose address or username has too many recent failures."""

    @functools.wraps(login_view)
    def view(request, *args, **kwargs):
        if request.method == "POST" and locked(request):
            return HttpResponse(
                "Too many failed log-ins from your address or for this user; try again later.",
                status=429,
                content_type="text/plain",
            )
        return login_view(request, *args, **kwargs)

    return view
