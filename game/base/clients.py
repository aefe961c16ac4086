"""
Who the client is: the one rule for a client's address, used by every limit
(game/base/limits.py) and by the log-in throttle (game/players/login_throttle.py).

The client address is the socket's peer, unless that peer is one of
HALFMOON_TRUSTED_PROXIES: then it is the last address the proxies appended to
X-Forwarded-For that is not itself a trusted proxy. Anyone can write that
header, so it is believed only from a proxy we run.

daphne's own `--proxy-headers` is a second rule, and a worse one: it puts the
first X-Forwarded-For address in place of the peer, whoever sent it. The server
warns at start when it runs with that flag (`warn_about_proxy_headers`).
"""

import hashlib
import hmac
import ipaddress
import logging

from django.conf import settings

logger = logging.getLogger(__name__)


def _trusted(address):
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(
        ip in ipaddress.ip_network(net, strict=False) for net in settings.HALFMOON_TRUSTED_PROXIES
    )


def address(peer, forwarded_for):
    """The client's address from the peer and its X-Forwarded-For header (may be None)."""
    if not peer or not _trusted(peer) or not forwarded_for:
        return peer or "unknown"
    for hop in reversed([part.strip() for part in forwarded_for.split(",")]):
        if hop and not _trusted(hop):
            return hop
    return peer


def request_address(request):
    """The address of an HTTP request's client."""
    return address(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))


def address_hash(request):
    """A keyed hash of an HTTP request's client address, what an account keeps of the
    address it signed up and last logged in from (game/players/trust.py): two accounts
    of one address can be told apart from others, the address itself is not stored."""
    key = f"halfmoon-address:{settings.SECRET_KEY}".encode()
    return hmac.new(key, request_address(request).encode(), hashlib.sha256).hexdigest()[:32]


def scope_address(scope):
    """The address of an ASGI connection's client (a websocket's scope)."""
    headers = dict(scope.get("headers") or [])
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1") or None
    return address((scope.get("client") or [None])[0], forwarded)


def warn_about_proxy_headers(argv):
    """Log a warning when daphne was started (`argv`) with `--proxy-headers`: it then takes
    any client's X-Forwarded-For for its address, before this module's rule can see it."""
    if not any(arg.startswith("--proxy-headers") for arg in argv):
        return False
    trusted = ", ".join(settings.HALFMOON_TRUSTED_PROXIES) or "none"
    logger.warning(
        "daphne runs with --proxy-headers: every client's X-Forwarded-For is taken for its "
        "address, so a client reaching daphne directly picks the address its limits and "
        "log-in failures count against. Run daphne without it and list the proxy in "
        "HALFMOON_TRUSTED_PROXIES (now: %s).",
        trusted,
    )
    return True


def tag(client_address):
    """A keyed digest of a client's address (16 hex digits): two records from one address
    can be told apart from others' without the address being stored."""
    key = f"halfmoon-address:{settings.SECRET_KEY}".encode()
    return hmac.new(key, client_address.encode(), hashlib.sha256).hexdigest()[:16]
