"""
The door's guards: no request is answered 500 for what a client sent, or because
PostgreSQL does not answer.

`Door` stands before anything reads the request. It refuses with 400 a path, query
string, form field or session cookie holding a character PostgreSQL cannot store (a
NUL, a lone surrogate), which would otherwise fail the first query that used it; with
413 a body over DATA_UPLOAD_MAX_MEMORY_SIZE, before any view runs. A view that fails
because the database is unreachable is answered 503: the API's `server_error`
object under /api/, else the translated error page, rendered without the request
so that nothing touches the session (it lives in the database too).

`Sessions` is Django's session middleware with two changes: a refused request
(4xx) never stores a new session, so a client without one answered 429 costs no
`django_session` row; and a session that cannot be saved in an outage is a 503.
"""

import logging

import psycopg
from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string
from django.utils import translation

from game.web.api import api_error

logger = logging.getLogger(__name__)

OUTAGE = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
"""What a database that went away raises (a refused connection, a pool's timeout)."""
UNREADABLE = (BadRequest, MultiPartParserError, SuspiciousOperation, UnreadablePostError)
"""What Django raises reading a form it cannot parse (too many fields, a bad boundary)."""


def storable(text):
    """Whether PostgreSQL can store `text`: valid UTF-8 (no lone surrogate), no NUL."""
    if "\x00" in text:
        return False
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _texts(request):
    """What the client chose that may reach a query: the path, the query string, the
    form, the session cookie (the session's key is looked up)."""
    yield request.path
    for data in (request.GET, request.POST):
        for key, values in data.lists():
            yield key
            yield from values
    yield request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


def _said(request):
    return request.method, request.path[:200]


def _api(request):
    return request.path.startswith("/api/")


def error_page(request, status):
    """The translated error page, rendered without the request: no session, no user."""
    template = "500.html" if status >= 500 else "400.html"
    with translation.override(translation.get_language_from_request(request)):
        return HttpResponse(render_to_string(template), status=status)


def refused(request, status, code, message):
    """The API's error object under /api/ (English, coded), else the error page."""
    return api_error(code, message) if _api(request) else error_page(request, status)


def too_large(request):
    """413, said loudly: the entrance refuses far smaller bodies, so this one reached
    a daphne that clients can reach directly (docs/operations.md says why they must not)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    logger.warning(
        "%s %s: a body over %s bytes reached daphne: is it reachable without the entrance?",
        *_said(request),
        limit,
    )
    return refused(request, 413, "too_large", f"a request body is at most {limit} bytes")


def unavailable(request):
    """503: the database does not answer; nothing was changed."""
    response = refused(request, 503, "server_error", "the database does not answer; try again")
    response["Retry-After"] = "5"
    return response


class Door:
    """Refuses what no view can use, and answers an outage with 503 (the module says why)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            request.body  # noqa: B018 - Django's own size check, before any view runs
            bad = not all(storable(text) for text in _texts(request))
        except RequestDataTooBig:
            return too_large(request)
        except UNREADABLE:
            return refused(request, 400, "bad_field", "the request's form cannot be read")
        if bad:
            message = "the address, the query, a field or the session cookie holds a NUL"
            return refused(request, 400, "bad_field", message)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OUTAGE):
            return None
        logger.warning("%s %s: database unavailable: %s", *_said(request), exception)
        return unavailable(request)


class Sessions(SessionMiddleware):
    """Django's sessions; none stored for a refused request, 503 when saving fails."""

    def process_response(self, request, response):
        session = getattr(request, "session", None)
        if session is not None and response.status_code >= 400 and session.session_key is None:
            session.modified = False  # a new session only for a request that was served
        try:
            return super().process_response(request, response)
        except OUTAGE:
            logger.warning("%s %s: session not saved: database unavailable", *_said(request))
            return unavailable(request)
