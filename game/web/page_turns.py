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

A stopping process (SIGTERM, game/realtime/shutdown.py calls `stop`) lets the requests
in Django finish, and answers every request still waiting for a turn, and every one that
comes after, with 307 to the same address: nothing of it ran here, so the browser asks
again, same method and body, and the entrance takes it to a replica that still listens.
A rush's queue used to be cancelled with the process: each request a 502 nginx could
not send elsewhere (a POST that had reached a replica), and the requests Django was
running when their loop stopped hung the process's exit (docs/performance.md, "The rush").

Static files (no database) go straight in.

`OneThread`, the last middleware, keeps a request in its thread. Django builds its
middleware chain from the view outwards, each middleware in the mode of the handler it
wraps: the middlewares below `Door` (sync only) ran in async mode, so each of their
`process_request` and `process_response` crossed from the event loop to the request's
thread and back, 17 crossings a page. A sync-only middleware innermost puts every
middleware in sync mode, in the request's thread: 5 crossings (the chain, the view, the
request's signals), some 10 % of a page's CPU in a daphne (docs/performance.md).
"""

import asyncio
import collections
from urllib.parse import quote

from django.conf import settings

from game.base import metrics


class PageTurns:
    """An ASGI wrapper of the HTTP application `inner`: at most `at_once` of its
    requests at a time (default HALFMOON_PAGES_AT_ONCE); anything else passes through."""

    def __init__(self, inner, at_once=None):
        self.inner = inner
        self.at_once = at_once or settings.HALFMOON_PAGES_AT_ONCE
        self.taken = 0
        self.waiting = collections.deque()
        """Futures of the requests waiting, in the order they came: True gives the turn,
        False sends the request elsewhere."""
        self.stopping = False
        self.static = settings.STATIC_URL if settings.STATIC_URL.startswith("/") else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self._static(scope["path"]):
            return await self.inner(scope, receive, send)
        if not await self._turn():
            return await elsewhere(scope, send)
        try:
            return await self.inner(scope, receive, send)
        finally:
            self._give_back()

    def stop(self):
        """The process is stopping: every request waiting, and every one after, goes
        elsewhere (307); those in Django finish."""
        self.stopping = True
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(False)

    async def _turn(self):
        """True once it is this request's turn, False when it should go elsewhere."""
        if self.stopping:
            return False
        if self.taken < self.at_once and not self.waiting:
            self.taken += 1
            return True
        turn = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        try:
            return await turn
        except asyncio.CancelledError:  # the client left: a turn handed over goes on
            if turn.done() and not turn.cancelled() and turn.result():
                self._give_back()
            raise

    def _give_back(self):
        """A turn ended: it goes to the first request still waiting, else it is free."""
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(True)
                return
        self.taken -= 1

    def _static(self, path):
        return self.static is not None and path.startswith(self.static)


async def elsewhere(scope, send):
    """307 to the request's own address, the connection closed after it: the client asks
    again (a browser keeps the method and the body) and the entrance, finding this
    process no longer listening, takes it to another."""
    path = scope.get("raw_path") or quote(scope["path"]).encode()
    query = scope.get("query_string", b"")
    location = path + (b"?" + query if query else b"")
    metrics.pages_sent_elsewhere.inc()
    headers = [
        (b"location", location),
        (b"retry-after", b"0"),
        (b"cache-control", b"no-store"),
        (b"connection", b"close"),
        (b"content-length", b"0"),
    ]
    await send({"type": "http.response.start", "status": 307, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


class OneThread:
    """The last middleware: sync only, so that Django runs every middleware above it in
    sync mode, in the request's one thread (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)
