"""
The client's translations (Django's JavaScript catalogue) at a versioned address.

Every page loads the catalogue of its language; at one address for all it had to be
asked again on every page (issue 33: no cache header, fetched each time). Its address
now carries a digest of its content, `/jsi18n/<digest>/`, so a browser keeps it for a
year and a new translation, or another language, is a new address. An old digest (a
page rendered before a release) still gets the current catalogue, but not for long.
"""

import hashlib
from functools import lru_cache

from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from game.web.assets import YEAR_S

_catalogue = JavaScriptCatalog.as_view()


@lru_cache(maxsize=16)
def digest(language):
    """The first hex digits of the catalogue's SHA-256 in `language` (translations are
    read once per process, so once is enough)."""
    with translation.override(language):
        request = HttpRequest()
        request.method = "GET"
        body = _catalogue(request).content
    return hashlib.sha256(body).hexdigest()[:12]


def catalogue_url():
    """The address of the current language's catalogue."""
    return reverse("javascript-catalog", args=[digest(translation.get_language())])


def catalogue(request, version):
    """The catalogue: kept for a year at its own digest, revalidated at another."""
    response = _catalogue(request)
    if version == digest(translation.get_language()):
        response["Cache-Control"] = f"public, max-age={YEAR_S}, immutable"
    else:
        response["Cache-Control"] = "no-cache"
    return response
