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
"""

from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

YEAR_S = 365 * 24 * 3600


class Assets(CompressedManifestStaticFilesStorage):
    """Hashed names that hashed modules import by (Django's `import`/`export … from`
    patterns), with .gz and .br copies."""

    support_js_module_import_aggregation = True


class StaticFiles(WhiteNoiseMiddleware):
    """whitenoise's middleware, a hashed file cached for a year (its default: ten)."""

    FOREVER = YEAR_S
