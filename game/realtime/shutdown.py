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
3. HTTP requests in Django finish, their connections closed after them; those waiting
   for a page turn go elsewhere (`when_draining`: game/web/page_turns.py's `stop`),
   and so do requests on the entrance's kept-alive connections, which are closed;
4. then daphne's own shutdown cancels what is left, and the process waits for it and
   for the requests Django leaves running when cancelled (`_abandoned_by_django`);
   a thread still in a request after that is left behind (`_watchdog`): waiting on a
   stopped loop, or on a lock, it would hold the process's exit forever.

2 and 3 run together, bounded by settings.HALFMOON_DRAIN_S; so is the wait of 4.

A socket closed for a restart keeps its presence mark, renewed just before (it runs
out by itself, HALFMOON_PRESENCE_TTL_S later): the player is back elsewhere within a
second or two, and the race should not hear that they left.
"""

import asyncio
import logging
import os
import sys
import threading
import time
import weakref

from daphne.http_protocol import WebRequest
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from twisted.internet import defer
from twisted.web.http import HTTPChannel

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
_on_drain = []
"""What else stops taking work when SIGTERM comes (`when_draining`)."""
metrics.sockets_open.set_function(lambda: len(_sockets))


def track(socket):
    _sockets.add(socket)


def untrack(socket):
    _sockets.discard(socket)


def when_draining(callback):
    """Call `callback()` on the event loop as the drain begins (the page turns' `stop`)."""
    _on_drain.append(callback)


def install():
    """Teach daphne the drain: remember its ports, drain before it cancels the
    applications, and let its websocket stack send 1012 (autobahn's `sendClose` takes
    only 1000 and 3000-4999 from an application; the frame itself may carry any code)."""
    from twisted.internet import reactor  # daphne's, installed when it was imported

    reactor.addSystemEventTrigger("after", "shutdown", _watchdog)
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
        return defer.Deferred.fromFuture(asyncio.ensure_future(stop(server, kill_all_applications)))

    return drain_then_kill


async def stop(server, kill_all_applications):
    """The drain, then daphne's own end of what is left (`kill_all_applications`, which
    cancels every application and waits for them), then `ended`."""
    try:
        await drain(server)
    except Exception:
        logger.exception("drain failed")
    killed = kill_all_applications(server).asFuture(asyncio.get_running_loop())
    await ended(killed)


def _restart_close(server_close):
    def close(protocol, code=None):
        if code == CloseCode.RESTART:
            protocol.sendCloseFrame(code=int(code), isReply=False)
        else:
            server_close(protocol, code)

    return close


async def drain(server):
    """Stop listening and taking work, then close every race socket for a restart once
    its frames in hand are done, while the HTTP requests in Django finish; returns when
    all are done or HALFMOON_DRAIN_S has passed."""
    global draining
    draining = True
    for port in _ports:
        port.stopListening()
    for callback in _on_drain:
        callback()
    _close_idle_connections()
    until = asyncio.get_running_loop().time() + settings.HALFMOON_DRAIN_S
    await asyncio.gather(_close_sockets(until), _finish_requests(server, until))


async def _close_sockets(until):
    sockets = list(_sockets)
    logger.warning("SIGTERM: closing %d race sockets with 1012 (service restart)", len(sockets))
    if not sockets:
        return
    try:
        await asyncio.to_thread(heartbeat.refresh_marks)
    except Exception:  # Redis does not answer: the marks live out their last refresh
        logger.warning("drain: presence marks not refreshed")
    tasks = [asyncio.ensure_future(socket.restart()) for socket in sockets]
    done, late = await asyncio.wait(tasks, timeout=_left(until))
    failed = [task for task in done if task.exception() is not None]
    if late or failed:
        logger.warning("drain: %d sockets late, %d failed", len(late), len(failed))


async def _finish_requests(server, until):
    """Until no HTTP request is running here (a request on a kept-alive connection may
    still come, and is sent elsewhere at once), each connection closed once answered."""
    while running := _requests(server):
        for request in running:
            _closing_after(request)
        _, late = await asyncio.wait(running.values(), timeout=_left(until))
        if late:
            logger.warning("drain: %d HTTP requests not finished", len(late))
            return


def _requests(server):
    """{daphne's request: its application} for each HTTP request not yet answered."""
    return {
        protocol: details["application_instance"]
        for protocol, details in list(server.connections.items())
        if isinstance(protocol, WebRequest)
        and "application_instance" in details
        and not details["application_instance"].done()
    }


def _closing_after(request):
    """The connection ends with this response: the entrance opens its next one to a
    replica that still listens. (A finished request no longer has its channel.)"""
    channel = getattr(request, "channel", None)
    if channel is not None:
        channel.persistent = False
    if not request.startedWriting:
        request.responseHeaders.setRawHeaders(b"connection", [b"close"])


def _close_idle_connections():
    """Close the entrance's kept-alive connections that carry no request now: it would
    send its next requests on them, each sent elsewhere (307) again and again."""
    from twisted.internet import reactor  # daphne's, installed when it was imported

    for reader in reactor.getReaders():
        channel = getattr(reader, "protocol", None)
        if isinstance(channel, HTTPChannel) and not channel.requests:
            reader.loseConnection()


async def ended(killed):
    """Wait for daphne's cancelled applications (`killed`) and `_abandoned_by_django`,
    bounded: what still runs then is left to `_watchdog`."""
    _, late = await asyncio.wait(
        [killed, *_abandoned_by_django()], timeout=settings.HALFMOON_DRAIN_S
    )
    if late:
        logger.error("drain: requests still running in Django; the process exits without them")


def _watchdog():
    """Once the reactor has stopped, the interpreter joins every thread before it exits.
    A request's thread waiting for its cancelled application, for the stopped loop or
    on a lock would hold that exit forever: if the process is still there
    HALFMOON_DRAIN_S later, it exits without them (their transactions roll back with
    their connections), as the process manager's SIGKILL would a little later."""
    threading.Thread(target=_exit_after, args=(settings.HALFMOON_DRAIN_S,), daemon=True).start()


def _exit_after(seconds):
    time.sleep(seconds)
    logger.error("exit: threads still running %.0f s after the reactor stopped", seconds)
    _exit_now()


def _exit_now():
    """Exit at once, the logs written: the interpreter would wait for the stuck threads."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _abandoned_by_django():
    """Django's ASGI handler runs each request's view in a task of its own
    (`process_request`), which its `handle` leaves running when it is cancelled, as daphne
    cancels every application before it stops its loop. Its view's thread may be waiting
    for that loop (a middleware between sync and async code): left to it, the
    interpreter's exit waits for that thread forever. Those tasks, still running."""
    code = _process_request_code()
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "cr_code", None) is code and not task.done()
    ]


def _process_request_code():
    """The code of `process_request`, the function `ASGIHandler.handle` defines inside."""
    return next(
        const
        for const in ASGIHandler.handle.__code__.co_consts
        if getattr(const, "co_name", None) == "process_request"
    )


def _left(until):
    return max(0.0, until - asyncio.get_running_loop().time())
