"""
A deploy nobody notices: what a daphne process does on SIGTERM.

Left to itself, daphne stops its reactor on SIGTERM by cancelling every
application: no `disconnect()` runs, every socket is dropped without a close
frame, and a move in flight is lost with its acknowledgement. `install()` (called by
halfmoon_site/asgi.py) puts a drain first, bounded by settings.HALFMOON_DRAIN_S:

1. the process stops listening, so the entrance (nginx) meets a refused connection
   and takes new pages and sockets to the other replica;
2. every race socket stops taking frames, finishes those it has begun (their moves
   committed, then acknowledged), and is closed with 1012 (service restart): the
   client reconnects at once, with a jitter, to the other replica and sends again
   any move left unanswered;
3. then daphne's own shutdown cancels what is left (HTTP requests, at most) and exits.

A socket closed for a restart keeps its presence mark, renewed just before (it runs
out by itself, HALFMOON_PRESENCE_TTL_S later): the player is back elsewhere within a
second or two, and the race should not hear that they left.
"""

import asyncio
import logging
import weakref

from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from django.conf import settings
from twisted.internet import defer

from game.base import metrics
from game.base.errors import CloseCode
from game.realtime import heartbeat

logger = logging.getLogger(__name__)
_sockets = weakref.WeakSet()
"""This process's open race sockets (consumers with `async restart()`)."""
_ports = []
"""What daphne listens on (Twisted ports)."""
draining = False
"""True once SIGTERM came: a socket that opens now is closed with 1012 at once."""
metrics.sockets_open.set_function(lambda: len(_sockets))


def track(socket):
    _sockets.add(socket)


def untrack(socket):
    _sockets.discard(socket)


def install():
    """Teach daphne the drain: remember its ports, drain before it cancels the
    applications, and let its websocket stack send 1012 (autobahn's `sendClose` takes
    only 1000 and 3000-4999 from an application; the frame itself may carry any code)."""
    Server.listen_success = _remembering(Server.listen_success)
    Server.kill_all_applications = _draining_first(Server.kill_all_applications)
    WebSocketProtocol.serverClose = _restart_close(WebSocketProtocol.serverClose)


def _remembering(listen_success):
    def remember(server, port):
        _ports.append(port)
        return listen_success(server, port)

    return remember


def _draining_first(kill_all_applications):
    def drain_then_kill(server):
        drained = defer.Deferred.fromFuture(asyncio.ensure_future(drain()))
        drained.addErrback(lambda failure: logger.error("drain failed: %s", failure.value))
        drained.addCallback(lambda _: kill_all_applications(server))
        return drained

    return drain_then_kill


def _restart_close(server_close):
    def close(protocol, code=None):
        if code == CloseCode.RESTART:
            protocol.sendCloseFrame(code=int(code), isReply=False)
        else:
            server_close(protocol, code)

    return close


async def drain():
    """Stop listening, then close every race socket for a restart once its frames in
    hand are done; returns when all are closed or HALFMOON_DRAIN_S has passed."""
    global draining
    draining = True
    for port in _ports:
        port.stopListening()
    sockets = list(_sockets)
    logger.warning("SIGTERM: closing %d race sockets with 1012 (service restart)", len(sockets))
    if not sockets:
        return
    try:
        await asyncio.to_thread(heartbeat.refresh_marks)
    except Exception:  # Redis does not answer: the marks live out their last refresh
        logger.warning("drain: presence marks not refreshed")
    tasks = [asyncio.ensure_future(socket.restart()) for socket in sockets]
    done, late = await asyncio.wait(tasks, timeout=settings.HALFMOON_DRAIN_S)
    failed = [task for task in done if task.exception() is not None]
    if late or failed:
        logger.warning("drain: %d sockets late, %d failed", len(late), len(failed))
