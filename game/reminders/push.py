"""
One web push message sealed and sent, as RFC 8291 (aes128gcm payload encryption) and
RFC 8292 (VAPID: the server signs a claim for the push service) say, with the one
HTTP client of the standard library. Only to the push services settings name
(HALFMOON_PUSH_SERVICES): the server never posts to an address a browser made up.
"""

import base64
import fnmatch
import functools
import json
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import http_ece
import py_vapid
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

SENT, GONE, FAILED = "sent", "gone", "failed"
TIMEOUT_S = 10


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def enabled():
    """Whether this server can send pushes: it has its VAPID key."""
    return bool(settings.HALFMOON_VAPID_PRIVATE_KEY)


@functools.cache
def _vapid(private_key):
    return py_vapid.Vapid02.from_raw(private_key.encode())


def public_key():
    """The VAPID public key as browsers take it (`applicationServerKey`), base64url."""
    key = _vapid(settings.HALFMOON_VAPID_PRIVATE_KEY).public_key
    return b64url_encode(
        key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )


def allowed(endpoint):
    """Whether `endpoint` is at a push service this server sends to: its scheme and
    host match one of HALFMOON_PUSH_SERVICES ("https://*.push.apple.com", …)."""
    parts = urlsplit(endpoint)
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    return any(fnmatch.fnmatchcase(origin, service) for service in settings.HALFMOON_PUSH_SERVICES)


def seal(payload, p256dh, auth):
    """The payload (a dict) encrypted for one browser's keys (RFC 8291, aes128gcm)."""
    sender = ec.generate_private_key(ec.SECP256R1())
    return http_ece.encrypt(
        json.dumps(payload).encode(),
        salt=None,
        private_key=sender,
        dh=b64url_decode(p256dh),
        auth_secret=b64url_decode(auth),
        version="aes128gcm",
    )


def send(subscription, payload, ttl_s=3600):
    """Post one sealed message to the subscription's push service: SENT, GONE (the
    service forgot the device: 404 or 410) or FAILED (anything else, tried again later)."""
    parts = urlsplit(subscription.endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
        "sub": settings.HALFMOON_VAPID_SUBJECT,
    }
    headers = {
        **_vapid(settings.HALFMOON_VAPID_PRIVATE_KEY).sign(claims),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(ttl_s),
        "Urgency": "normal",
    }
    body = seal(payload, subscription.p256dh, subscription.auth)
    request = urllib.request.Request(subscription.endpoint, body, headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:  # noqa: S310 - allowed()
            return SENT if answer.status < 300 else FAILED
    except urllib.error.HTTPError as error:
        return GONE if error.code in (404, 410) else FAILED
    except (urllib.error.URLError, OSError):
        return FAILED
