"""
A socket's session, found once when it opens, and nothing done with it on the way out.

channels' SessionMiddleware wraps every frame a socket sends to ask the session whether
it changed, through two lazy proxies, only to save it before an HTTP response, which a
websocket never sends: 4 % of a daphne process's CPU at 600 players moving once a
second (py-spy, bench/openloop.py). The consumers save a session they change
themselves (game/realtime/consumer.py `_identify`), so here the session is only
found: its store is made from the cookie, lazily (read from the database when first
asked, after the socket was accepted, so that an outage closes it with 4503).
"""

from importlib import import_module

from channels.sessions import CookieMiddleware
from django.conf import settings


class SessionScope:
    """`scope["session"]`: the session the socket's cookie names (an empty one without)."""

    def __init__(self, inner):
        self.inner = inner
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope, receive, send):
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": self.store(key)}, receive, send)


def session_stack(inner):
    """Cookies parsed, then the session found: channels' stack without its per-frame save."""
    return CookieMiddleware(SessionScope(inner))
