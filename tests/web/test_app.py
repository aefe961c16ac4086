"""The installable app's addresses without a browser: the manifest, the service worker
(its precache list in the storage's own names) and the offline table, in every language."""

import json
import re

import pytest
from django.templatetags.static import static

from tests.support.server import signed_up

OFFLINE_NOTES = {
    "en": "You are offline: a practice game",
    "fr": "Vous êtes hors ligne : une partie d’entraînement",
    "ca": "Estàs fora de línia: una partida d’entrenament",
    "ro": "Sunteți offline: un joc de antrenament",
}


def worker_config(response):
    return json.loads(
        re.search(r"^const CONFIG = (.*);$", response.content.decode(), re.M).group(1)
    )


def test_the_manifest_is_a_standalone_app_with_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert {icon["src"] for icon in manifest["icons"]} == {
        static(f"icons/{kind}-{size}.png") for kind in ("icon", "maskable") for size in (192, 512)
    }
    assert client.head("/manifest.webmanifest").status_code == 200


def test_the_worker_is_served_from_the_root_never_cached_and_precaches_by_static_names(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    config = worker_config(response)
    assert config["shell"] == "/offline/play/" and config["shell"] in config["precache"]
    assert config["offline"] == "/offline/" and config["kept"] == {"/rules/": "/offline/rules/"}
    assert {"/offline/", "/offline/rules/"} <= set(config["precache"])
    for path in (
        "js/offline.js",
        "js/hm1.js",
        "js/practice.js",
        "css/site.css",
        "icons/icon-192.png",
    ):
        assert static(path) in config["precache"], path
    assert not any("admin" in url for url in config["precache"])
    assert config["static"] == static("")  # the worker never spells out /static/ itself
    assert worker_config(client.get("/sw.js"))["version"] == config["version"]


def test_the_worker_refuses_what_is_not_a_read(client):
    assert client.post("/sw.js").status_code == 405


@pytest.mark.parametrize("lang", sorted(OFFLINE_NOTES))
def test_the_offline_table_says_it_is_offline_and_loads_no_socket(client, lang):
    page = client.get("/offline/play/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert OFFLINE_NOTES[lang] in page
    assert static("js/offline.js") in page and static("js/play.js") not in page
    assert 'data-ws-path=""' in page
    assert 'name="sounds"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/offline/play/", "/offline/", "/offline/rules/"])
def test_the_pages_the_worker_keeps_name_nobody_whoever_asks(url):
    browser = signed_up("wren")
    assert "wren" in browser.get("/").content.decode()  # the pages name the account
    kept = browser.get(url).content.decode()
    assert "wren" not in kept and "Log out" not in kept


OFFLINE_PAGES = {
    "en": ("You are offline", "Play a practice game"),
    "fr": ("Vous êtes hors ligne", "Jouer une partie d’entraînement"),
    "ca": ("Estàs fora de línia", "Juga una partida d’entrenament"),
    "ro": ("Sunteți offline", "Jucați un joc de antrenament"),
}


@pytest.mark.parametrize("lang", sorted(OFFLINE_PAGES))
def test_the_offline_page_says_so_with_the_practice_game_a_tap_away(client, lang):
    page = client.get("/offline/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for text in OFFLINE_PAGES[lang]:
        assert text in page
    assert 'href="/play/HM1-N-' in page and static("js/shell.js") in page


def test_the_worker_keeps_each_language_apart(client):
    english = worker_config(client.get("/sw.js", HTTP_ACCEPT_LANGUAGE="en"))
    french = worker_config(client.get("/sw.js", HTTP_ACCEPT_LANGUAGE="fr"))
    assert english["version"] != french["version"]  # another language reinstalls the pages
    assert set(english["precache"]) != set(french["precache"])  # its own translations
