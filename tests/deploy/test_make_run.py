"""`make run` as a player meets it: DEBUG off (the site's own 404, never Django's list of
every URL), pages gzipped, and the translations at an address kept for a year."""

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from game.web import catalogue

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = re.compile(r'<script src="(/jsi18n/[0-9a-f]+/)"></script>')


def make_run_environment():
    """The variables `make run` starts daphne with, read from `make -n` (nothing runs)."""
    shown = subprocess.run(
        ["make", "-n", "-s", "run", f"VENV={Path(sys.executable).parent.parent}"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in shown.splitlines() if "daphne" in line)
    return dict(re.findall(r"(\w+)=(\S+) ", line.split(" exec ")[0] + " "))


def test_make_run_starts_with_debug_off_and_settings_that_load():
    env = make_run_environment()
    assert env["DEBUG"] == "0" and env["SECURE_COOKIES"] == "0"
    loaded = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT,
        env={**os.environ, **env, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "False"


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_404_under_make_run_is_the_sites_page_not_the_url_list(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Half Moon Race" in page and 'class="site-header"' in page
    assert "URLconf" not in page and "admin/" not in page


@pytest.mark.django_db
def test_pages_come_gzipped_to_a_browser_that_asks(client):
    response = client.get("/rules/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert response["Content-Encoding"] == "gzip"
    assert "Vary" in response and "Accept-Encoding" in response["Vary"]
    assert b"<h1" in gzip.decompress(response.content)


@pytest.mark.django_db
def test_the_translations_are_kept_a_year_at_an_address_that_follows_their_content(client):
    english = CATALOGUE.search(client.get("/rules/").content.decode()).group(1)
    french = CATALOGUE.search(
        client.get("/rules/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    ).group(1)
    assert english != french  # another catalogue, another address
    response = client.get(french, HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get("/jsi18n/000000000000/")["Cache-Control"] == "no-cache"


@pytest.mark.django_db
def test_a_changed_catalogue_gets_a_new_address(client, monkeypatch):
    before = CATALOGUE.search(client.get("/rules/").content.decode()).group(1)
    changed = catalogue._catalogue

    def catalogue_with_a_new_word(request):
        response = changed(request)
        response.content += b"\n// a new translation"
        return response

    monkeypatch.setattr(catalogue, "_catalogue", catalogue_with_a_new_word)
    catalogue.digest.cache_clear()
    try:
        after = CATALOGUE.search(client.get("/rules/").content.decode()).group(1)
    finally:
        catalogue.digest.cache_clear()
    assert after != before
