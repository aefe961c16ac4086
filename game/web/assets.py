"""
Static files the production way: collected under names that carry their content's
hash, gzip and brotli beside each, and cached by browsers for a year.

`collectstatic` (the Docker image, `make run`, the browser tests) writes them to
STATIC_ROOT with `Assets`: Django's manifest storage through whitenoise's, which
adds the compressed copies. The client is ES modules importing each other by
relative paths (`import … from "./cards.js"`); with the module patterns on, each
hashed module imports its siblings' hashed names, so a page never loads a module
twice under two names, and a new release's modules never mix with a cached old one.

`StaticFiles` serves them from every daphne process (whitenoise's middleware): a
hashed name never changes content, so it is `immutable` for a year; the request's
Accept-Encoding picks the brotli or gzip copy.

`StaticFront` answers them on the event loop, in front of Django's ASGI handler. A
file through Django cost a process 2.2 ms of CPU (a thread for the request, another to
read the file, the signals around it) where whitenoise's own work is a dictionary
lookup and a header list, and a cold game page asks for 38 of them (docs/performance.md).
The front runs the same middlewares as Django would, in settings.MIDDLEWARE's order up to
and including `StaticFiles`, so the same code sets every header (the security headers,
the CSP, whitenoise's); only a file whitenoise answers is sent from here. Anything else
(no such file, a redirect to HTTPS, a Host not allowed, a request with a body) goes to
Django as before, which answers it as it always did.
"""

import contextlib
import io

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.utils.module_loading import import_string
from whitenoise.middleware import WhiteNoiseFileResponse, WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

YEAR_S = 365 * 24 * 3600


class Assets(CompressedManifestStaticFilesStorage):
    """Hashed names that hashed modules import by (Django's `import`/`export … from`
    patterns), with .gz and .br copies."""

    support_js_module_import_aggregation = True


class StaticFiles(WhiteNoiseMiddleware):
    """whitenoise's middleware, a hashed file cached for a year (its default: ten)."""

    FOREVER = YEAR_S


STATIC_FILES = f"{__name__}.StaticFiles"
BLOCK = 64 * 1024
"""The front's reads of a file: most are read in one (Django's FileResponse: 4 KiB)."""


class StaticFront:
    """An ASGI wrapper of the HTTP application `inner` that answers a static file itself
    (see the module's docstring); `inner` gets everything else."""

    def __init__(self, inner):
        self.inner = inner
        self.chain = _middlewares_to_static(settings.MIDDLEWARE)

    async def __call__(self, scope, receive, send):
        response = self._file(scope) if self.chain else None
        if response is None:
            return await self.inner(scope, receive, send)
        with contextlib.closing(response):
            headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
            await send(
                {"type": "http.response.start", "status": response.status_code, "headers": headers}
            )
            response.block_size = BLOCK  # read as the stream asks (FileResponse reads it then)
            for chunk in response.streaming_content:  # a local file: no wait worth a thread
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body"})

    def _file(self, scope):
        """The middlewares' response if it is a static file's, else None."""
        if not _plain_read(scope):
            return None
        try:
            response = self.chain(ASGIRequest(scope, io.BytesIO()))
        except Exception:  # noqa: BLE001 - Django answers it, as it did
            return None
        if isinstance(response, WhiteNoiseFileResponse):
            return response
        response.close()
        return None


def _plain_read(scope):
    """A GET or HEAD of an address under STATIC_URL with no body."""
    if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
        return False
    if not scope["path"].startswith(settings.STATIC_URL):
        return False
    headers = dict(scope.get("headers") or ())
    return headers.get(b"content-length", b"0") == b"0" and b"transfer-encoding" not in headers


def _middlewares_to_static(middleware):
    """settings.MIDDLEWARE up to and including StaticFiles, built around a view that
    answers nothing (so only a file is whitenoise's answer); None without StaticFiles."""
    if STATIC_FILES not in middleware:
        return None
    handler = _not_static
    for path in reversed(middleware[: middleware.index(STATIC_FILES) + 1]):
        handler = import_string(path)(handler)
    return handler


def _not_static(request):
    return HttpResponse(status=404)
