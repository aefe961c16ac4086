"""
Pages take turns for the database: at most HALFMOON_PAGES_AT_ONCE HTTP requests of a
process are in Django at once; the others wait their turn on the event loop, first
come first served.

Django runs each request's view in a thread of its own (one `ThreadSensitiveContext`
per request), and each holds a pooled database connection from its first query to its
end. A crowd at once (the daily deal's reset: docs/performance.md, "The rush") put
dozens of requests in threads at the same moment, all but the pool's 8 waiting for a
connection, and those that waited DATABASE_WAIT_S (2 s) were answered 503, an outage's
answer, though the database was only busy; nginx then counted the replica failed
(deploy/nginx.conf, `max_fails`) and answered 502 for both. Waiting here holds no
thread and no connection, only the request; fewer threads in the view at once also
give each its turn of the interpreter sooner. The pool keeps connections beyond the
turns for the sockets' frames and the presence heartbeat, which never wait here.

Static files (no database) go straight in.
"""

import asyncio

from django.conf import settings


class PageTurns:
    """An ASGI wrapper of the HTTP application `inner`: at most `at_once` of its
    requests at a time (default HALFMOON_PAGES_AT_ONCE); anything else passes through."""

    def __init__(self, inner, at_once=None):
        self.inner = inner
        self.at_once = at_once or settings.HALFMOON_PAGES_AT_ONCE
        self.turns = None  # made on the serving event loop, at the first request
        self.static = settings.STATIC_URL if settings.STATIC_URL.startswith("/") else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self._static(scope["path"]):
            return await self.inner(scope, receive, send)
        if self.turns is None:
            self.turns = asyncio.Semaphore(self.at_once)
        async with self.turns:
            return await self.inner(scope, receive, send)

    def _static(self, path):
        return self.static is not None and path.startswith(self.static)
