"""
`StaticFront` answers a static file on the event loop with exactly what Django's handler
answers for it (status, every header, the body), and hands Django every request that is
not a plain read of a file whitenoise has: a missing file, a Host not allowed, a redirect
to HTTPS, a POST, a read with a body.
"""

import asyncio

import pytest
from django.core.asgi import get_asgi_application

from game.web.assets import StaticFront

FILE = "/static/js/play.js"

pytestmark = pytest.mark.filterwarnings(  # Django's answer to a file, not the front's
    "ignore:StreamingHttpResponse must consume synchronous iterators"
)


def scope(path=FILE, method="GET", headers=(), host=b"testserver"):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", host), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def answer(app, request, body=b""):
    """(status, headers, body) of `app` for the ASGI `request`."""
    sent, bodies = [], [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        if bodies:
            return bodies.pop()
        await asyncio.Event().wait()  # the client stays: Django listens for it leaving

    async def send(message):
        sent.append(message)

    await app(request, receive, send)
    start = sent[0]
    return start["status"], start["headers"], b"".join(m.get("body", b"") for m in sent[1:])


class Django:
    """Django's ASGI handler, counting the requests it was given."""

    def __init__(self):
        self.handler, self.calls = get_asgi_application(), 0

    async def __call__(self, request, receive, send):
        self.calls += 1
        return await self.handler(request, receive, send)


def etag_of(headers):
    return dict(headers)[b"ETag"]


@pytest.mark.parametrize(
    "headers",
    [
        [(b"accept-encoding", b"gzip, br")],
        [(b"accept-encoding", b"gzip")],
        [],
        [(b"range", b"bytes=0-10")],
    ],
    ids=["brotli", "gzip", "identity", "range"],
)
@pytest.mark.parametrize("method", ["GET", "HEAD"])
async def test_a_static_file_is_answered_as_django_answers_it_without_django(headers, method):
    django = Django()
    front = StaticFront(django)
    request = scope(method=method, headers=headers)
    from_front = await answer(front, request)
    assert django.calls == 0
    assert from_front == await answer(django, request)
    assert from_front[0] in (200, 206)
    assert dict(from_front[1])[b"Content-Security-Policy"].startswith(b"default-src 'self'")
    assert dict(from_front[1])[b"X-Content-Type-Options"] == b"nosniff"
    assert from_front[2] if method == "GET" else not from_front[2]


async def test_a_file_the_browser_has_is_a_304_from_the_front():
    django = Django()
    front = StaticFront(django)
    _, headers, _ = await answer(front, scope())
    request = scope(headers=[(b"if-none-match", etag_of(headers))])
    from_front = await answer(front, request)
    assert from_front[0] == 304
    assert from_front == await answer(django, request)
    assert django.calls == 1


@pytest.mark.parametrize(
    ("request_", "body", "status"),
    [
        (scope(path="/static/js/no-such-module.js"), b"", 404),
        (scope(host=b"evil.example"), b"", 400),
        (scope(method="POST"), b"", 405),  # whitenoise's, in Django
        (scope(headers=[(b"content-length", b"4")]), b"abcd", 200),
        (scope(path="/rules/"), b"", 200),
    ],
    ids=["missing file", "host not allowed", "post", "a body", "a page"],
)
async def test_what_is_not_a_plain_read_of_a_file_goes_to_django(request_, body, status, db):
    django = Django()
    front = StaticFront(django)
    assert (await answer(front, request_, body))[0] == status
    assert django.calls == 1


async def test_a_redirect_to_https_is_djangos(settings):
    settings.SECURE_SSL_REDIRECT = True
    django = Django()
    front = StaticFront(django)  # its middlewares read the setting when built
    status, headers, _ = await answer(front, scope())
    assert django.calls == 1
    assert status == 301 and dict(headers)[b"Location"] == f"https://testserver{FILE}".encode()
