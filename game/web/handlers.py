"""
The error handlers (404, 403, 400, 500), each closing its thread's database connections.

Under ASGI, Django answers an exception (a 404 above all) with `response_for_exception`
on the event loop's executor (`thread_sensitive=False`), not on the request's own
thread, whose start and end close its connections. A connection the 404 page opened
(reading a visitor's session for the page's header) stayed with that executor thread;
once PostgreSQL restarted it was dead, and every such 404 on that thread was a 500 until
the process restarted. `on_any_thread` closes them before (a kept connection, dead or
not, is dropped) and after (it goes back to the pool at once).
"""

import functools

from django.db import close_old_connections, connections
from django.views import defaults


def on_any_thread(handler):
    """`handler`, dropping its thread's connections before and after it runs."""

    @functools.wraps(handler)
    def handle(*args, **kwargs):
        _close_old()
        try:
            return handler(*args, **kwargs)
        finally:
            _close_old()

    return handle


def _close_old():
    """Django's `close_old_connections`, unless a transaction is open on this thread (a
    handler run on the request's own thread, as Django's test client runs it): that
    connection is the transaction's, not one left behind."""
    if not any(c.in_atomic_block for c in connections.all(initialized_only=True)):
        close_old_connections()


bad_request = on_any_thread(defaults.bad_request)
permission_denied = on_any_thread(defaults.permission_denied)
server_error = on_any_thread(defaults.server_error)
