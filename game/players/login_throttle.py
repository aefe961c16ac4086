"""
A throttle on admin log-in failures: after `HALFMOON_LOGIN_FAILURES` failed
log-ins from one client address within `HALFMOON_LOGIN_WINDOW_S`, that address's
log-in attempts are refused (429) until the window has passed — guessing a
staff password costs hours, not seconds.

Failures are counted in Django's cache, which is Redis whenever `REDIS_URL` is
set, so all server processes count together. The address is the client's as
daphne sees it: behind the proxy (`--proxy-headers`) the one the proxy names.
"""

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpResponse


def _key(request):
    return f"login-failures:{request.META.get('REMOTE_ADDR', '')}"


@receiver(user_login_failed)
def _count_failure(sender, credentials, request=None, **kwargs):
    if request is None:
        return
    key = _key(request)
    cache.add(key, 0, timeout=settings.HALFMOON_LOGIN_WINDOW_S)
    cache.incr(key)


def throttled(login_view):
    """`login_view`, refusing POSTs from an address with too many recent failures."""

    def view(request, *args, **kwargs):
        if request.method == "POST" and cache.get(_key(request), 0) >= (
            settings.HALFMOON_LOGIN_FAILURES
        ):
            return HttpResponse(
                "Too many failed log-ins from your address; try again later.",
                status=429,
                content_type="text/plain",
            )
        return login_view(request, *args, **kwargs)

    return view
