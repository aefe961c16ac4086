"""
Static files the production way, from a real daphne run as the Docker image runs
it (DEBUG=0, STATIC_ROOT collected by `collectstatic`): pages name hashed files,
every hashed module imports its siblings by their hashed names (a page never
loads one module twice), a hashed file is cached for a year as immutable and
comes as brotli or gzip when the browser asks for it.
"""

import gzip
import json
import re
import urllib.request

import brotli
import pytest

from game.testing.live import collected_static, database_url, environment, running

pytestmark = [pytest.mark.postgres, pytest.mark.multiprocess]

HASHED = re.compile(r"\.[0-9a-f]{12}\.(js|css|png|svg|webmanifest)$")
RELATIVE_IMPORT = re.compile(
    r"""(?:\bimport\s*(?:[\w*{}\s,]+\sfrom\s*)?|\bexport\s*[\w*{}\s,]+\sfrom\s*|\bimport\()"""
    r"""["'](\.{1,2}/[^"']+)["']"""
)
"""A module specifier of an import, an `export … from` or a dynamic import, relative."""


@pytest.fixture(scope="module")
def static_root():
    return collected_static()


@pytest.fixture(scope="module")
def server(static_root, django_db_setup, tmp_path_factory):
    from django.conf import settings

    env = environment(
        database_url(settings.DATABASES["default"]),
        DEBUG="0",
        STATIC_ROOT=str(static_root),
        SECRET_KEY="static-tests-only-" + "s" * 40,
        HALFMOON_DAILY_SECRET="static-tests-only-daily-" + "d" * 32,
        SECURE_COOKIES="0",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(1, env, tmp_path_factory.mktemp("static")) as (daphne,):
        yield daphne


def fetch(url, method="GET", encodings=None):
    """(status, headers, body as sent) of one request asking for `encodings`."""
    headers = {"Accept-Encoding": encodings} if encodings else {}
    request = urllib.request.Request(url, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers, response.read()


def test_every_hashed_module_imports_its_siblings_by_their_hashed_names(static_root):
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    hashed = set(manifest.values())
    modules = [name for name in hashed if name.endswith(".js") and name.startswith("js/")]
    assert "js/play.js" in manifest and len(modules) >= 20
    imported = 0
    for name in modules:
        for specifier in RELATIVE_IMPORT.findall((static_root / name).read_text()):
            target = str((static_root / name).parent.joinpath(specifier).resolve())
            target = target.removeprefix(str(static_root.resolve()) + "/")
            assert target in hashed, f"{name} imports {specifier}, not a hashed file"
            imported += 1
    assert imported >= 40  # play.js alone imports 19 modules


@pytest.mark.django_db(transaction=True)  # the database the server writes to, emptied after
def test_a_page_names_hashed_files_cached_for_a_year_and_sent_compressed(
    server, static_root, todays_deal
):
    status, _, page = fetch(f"{server.url}/play/HM1-N-AAAAAAB/")
    assert status == 200
    names = re.findall(r'(?:href|src)="/static/([^"]+)"', page.decode())
    assert {"css/site.css", "js/site.js", "js/play.js"} <= {HASHED.sub(r".\1", n) for n in names}
    for name in names:
        assert HASHED.search(name), f"the page names {name}, not a hashed file"
        stored = (static_root / name).read_bytes()
        packed = name.endswith((".js", ".css"))  # images come compressed already
        for asked, sent, unpack in (
            ("gzip, deflate, br", "br" if packed else None, brotli.decompress if packed else bytes),
            ("gzip", "gzip" if packed else None, gzip.decompress if packed else bytes),
            (None, None, bytes),
        ):
            _, headers, body = fetch(f"{server.url}/static/{name}", encodings=asked)
            assert headers["Content-Encoding"] == sent, (name, asked)
            assert headers["Cache-Control"] == "max-age=31536000, public, immutable", name
            assert not packed or "Accept-Encoding" in headers["Vary"], name
            assert unpack(body) == stored, (name, asked)
            if sent:
                assert len(body) < len(stored), (name, sent)


@pytest.mark.django_db(transaction=True)
def test_head_answers_a_page_and_a_static_file_with_get_s_headers_and_no_body(server, todays_deal):
    """The lobby (today's deal seeded: no solve before it answers) and its stylesheet."""
    status, got, page = fetch(f"{server.url}/")
    assert status == 200 and page
    status, head, body = fetch(f"{server.url}/", method="HEAD")
    assert status == 200 and body == b""
    assert head["Content-Type"] == got["Content-Type"] == "text/html; charset=utf-8"
    stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page).group(1)
    status, head, body = fetch(f"{server.url}{stylesheet.decode()}", method="HEAD")
    assert status == 200 and body == b"" and "immutable" in head["Cache-Control"]
