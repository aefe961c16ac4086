"""
The installable app: the web app manifest, the service worker at /sw.js and the
offline table it keeps.

The worker is a Django view, not a static file, for two reasons: it must be served
from the root to control every page (scope `/`), and its precache list must name
the static files by `static()`, whatever the storage makes of their names (hashed
ones in production). Its version is a digest of those names and contents, so any
change to a file installs a new worker that drops the old caches. The offline table
(`/offline/play/`) is the table page in "offline" mode: with no network the worker
serves it for any `/play/HM1-N-…/`, and frontend/js/offline.js deals and plays the
code in the browser, a practice game never ranked and never sent. For any other page
the worker serves the offline page (`/offline/`: "you are offline", the practice game
one tap away), and for /rules/ the rules as kept (`/offline/rules/`), so the installed
app opened offline (the manifest's start_url, `/`) shows ours, not the browser's error.
The worker keeps them across log-outs and for whoever uses the device next, so they
name nobody: each is rendered as a visitor's page whoever asks (round three found the
last user's name in the offline table, offline, after their log-out); no other page is
kept.
"""

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.engine.examples import RULE_BOOK_DEAL
from game.web import rules
from game.web.catalogue import catalogue_url

PRECACHED = ("js/", "css/site.css", "icons/")
"""The static files the offline table needs (every module, as play.js's imports may
change), besides the admin's."""

ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-192.png", "192x192", "maskable"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)
THEME_COLOUR, BACKGROUND_COLOUR = "#145c3a", "#08160f"


@require_safe
def manifest(request):
    """The web app manifest: a standalone app that opens on the lobby."""
    body = {
        "name": "Half Moon Race",
        "short_name": "Half Moon",
        "description": gettext("Half Moon solitaire: race the same deal, or play alone."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("game:lobby"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request):
    """/sw.js, never cached by HTTP: the browser compares it byte for byte to update."""
    files = _precached() if settings.DEBUG else _precached_once()
    context = {
        "config": json.dumps(
            {
                # A language of its own: choosing another installs the pages kept in it.
                "version": f"{files['version']}-{request.LANGUAGE_CODE}",
                "static": settings.STATIC_URL,
                "shell": reverse("game:offline-play"),
                "offline": reverse("game:offline"),
                "kept": {reverse("game:rules"): reverse("game:offline-rules")},
                "precache": [*_pages(), *files["urls"]],
            }
        ),
    }
    response = render(request, "game/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline_play(request):
    """The table with no server behind it, which the worker keeps for offline play: a
    visitor's page whoever asks, so the cached copy names no one."""
    _as_visitor(request)
    note = gettext(
        "You are offline: a practice game in this browser only. It is never ranked and never"
        " sent; online, the same link plays the deal for real."
    )
    context = {
        "mode": "offline",
        "room": "",
        "ws_path": "",
        "deal_code": "",
        "deal_label": None,
        "daily_date": None,
        "unranked_note": note,
    }
    return render(request, "game/table.html", context)


@require_safe
def offline_page(request):
    """ "You are offline", for any page the worker cannot fetch: a visitor's page."""
    _as_visitor(request)
    return render(request, "game/offline.html", {"practice_code": RULE_BOOK_DEAL})


@require_safe
def offline_rules(request):
    """The rules page as the worker keeps it for /rules/: a visitor's page."""
    _as_visitor(request)
    return rules.rules(request)


def _as_visitor(request):
    """A page the worker keeps is a visitor's, whoever asks: it names nobody."""
    request.user = AnonymousUser()


def _pages():
    """The pages the worker keeps and what they load that is not a static file."""
    kept = ("game:offline-play", "game:offline", "game:offline-rules", "game:manifest")
    return [*(reverse(name) for name in kept), catalogue_url()]


@lru_cache(maxsize=1)
def _precached_once():
    return _precached()


def _precached():
    """The static URLs to precache, and a digest of their names and contents."""
    digest = hashlib.sha256()
    urls = []
    for path, storage in _static_files():
        url = static(path)
        digest.update(url.encode())
        with storage.open(path) as file:
            digest.update(file.read())
        urls.append(url)
    return {"urls": urls, "version": digest.hexdigest()[:16]}


def _static_files():
    seen = {}
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            path = path.replace("\\", "/")
            if path.startswith(PRECACHED) and path not in seen:
                seen[path] = storage
    return sorted(seen.items())
