"""
ASGI entry point: HTTP goes to Django, websockets to the game's consumers.

Run with `python -m halfmoon_site.daphne_uvloop halfmoon_site.asgi:application` (daphne
on uvloop; plain `daphne halfmoon_site.asgi:application` serves the same, a little slower).
"""

import os
import sys

from autobahn.twisted import websocket as autobahn_twisted
from autobahn.websocket import protocol as autobahn_protocol
from daphne.ws_protocol import WebSocketFactory
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "halfmoon_site.settings")

# Set up Django before importing anything that touches models (the routing does).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from game.base import clients  # noqa: E402
from game.realtime import door, shutdown  # noqa: E402
from game.realtime.sessions import session_stack  # noqa: E402
from game.routing import websocket_urlpatterns  # noqa: E402
from game.web.assets import StaticFront  # noqa: E402
from game.web.page_turns import PageTurns  # noqa: E402
from halfmoon_site import collector, eager_writes, fast_frames, fast_sends  # noqa: E402

clients.warn_about_proxy_headers(sys.argv)
# SIGTERM: stop listening, close race sockets with 1012 once their moves are committed.
shutdown.install()

# A crowd of requests waits its turn here, not for a database connection; on SIGTERM,
# those still waiting are sent to the other replica (307).
pages = PageTurns(django_asgi_app)
shutdown.when_draining(pages.stop)

application = ProtocolTypeRouter(
    {
        # A static file is answered on the event loop, with Django's headers (assets.py).
        "http": StaticFront(pages),
        "websocket": AllowedHostsOriginValidator(
            # Sessions, no user: the consumer loads the session after accepting, so
            # a database outage closes the socket with 4503 instead of an HTTP 500.
            session_stack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# What start-up loaded is frozen, and collections run less often (collector.py).
collector.settle()


# daphne's websocket stack (autobahn) fails a connection by dropping it, a TCP reset
# the client cannot tell from a network fault, unless it is told to close it: then a
# message over daphne's --websocket-max-message-size (1 MiB) is closed with 1009 and
# invalid UTF-8 with 1007 (docs/protocol.md). daphne sets its options when it starts
# serving, after it imported this module.
_set_options = WebSocketFactory.setProtocolOptions


def _close_on_failure(factory, **options):
    _set_options(factory, **options, failByDrop=False)


WebSocketFactory.setProtocolOptions = _close_on_failure


def _as_is(value, *_styles, **_style):
    return value


# autobahn works out the arguments of a debug line on every frame it sends or receives,
# logged or not: a method's qualified name found by `inspect`, values made text and
# coloured by click when it is installed. That was 5-6 % of a process's CPU at 600
# players (py-spy, bench/openloop.py). The line gets the values themselves, made text
# only if debug logging is on.
for _module in (autobahn_protocol, autobahn_twisted):
    _module.hltype = _module.hlval = _as_is

# Twisted sends a socket's bytes on the event loop's next turn: see eager_writes.
eager_writes.install()

# autobahn reads each of a client's frames through a dozen calls: see fast_frames.
fast_frames.install()

# ... and sends each of the server's through half a dozen: see fast_sends. A race's
# sockets send a move's frames through it at once, without a coroutine each.
fast_sends.install()
door.fast_sender = fast_sends.sender
