"""
No 500 for what a client sends or for a database that went away (game/web/guards.py):
characters PostgreSQL cannot store are a 400 before any view, a body over the limit
a 413, signing up while logged in a redirect, an outage a 503 (the API's
`server_error`, or the translated error page). The real outage, against a daphne
process, is in tests/base/test_outages.py.
"""

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client

from game.deals import daily
from game.engine.examples import RULE_BOOK_DEAL
from game.players import identity
from tests.support.server import post

pytestmark = pytest.mark.django_db

PASSWORD = "moon-race-42!"


def lenient():
    """A client that gets Django's answer to an exception (a 500) instead of the exception."""
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "url",
    [
        "/players/a%00b/",
        "/?next=%00",
        "/daily/2026-01-01%00/",
        "/api/races/ABC%00DE/",
        "/api/daily/2026-01-01/leaderboard/?page=%00",
        "/replay/ABCDEF/1%00/",
    ],
)
def test_a_nul_in_the_address_is_refused_with_400_before_any_view(url):
    response = lenient().get(url)
    assert response.status_code == 400
    if url.startswith("/api/"):
        assert response.json()["error"]["code"] == "bad_field"
    else:
        assert "Bad request" in response.content.decode()


def test_a_nul_in_a_form_field_or_a_cookie_is_refused_with_400():
    client = lenient()
    form = {"username": "a\x00b", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", form).status_code == 400
    assert client.post("/accounts/login/", {"username": "\x00", "password": "x"}).status_code == 400
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/me/").status_code == 400
    assert not User.objects.exists()


def test_a_form_that_cannot_be_read_is_refused_with_400():
    client = lenient()
    broken = client.post("/accounts/login/", b"--x\r\n", content_type="multipart/form-data")
    assert broken.status_code == 400  # no boundary
    fields = "&".join(f"f{n}=1" for n in range(1001))
    many = client.post("/accounts/login/", fields, "application/x-www-form-urlencoded")
    assert many.status_code == 400  # over DATA_UPLOAD_MAX_NUMBER_FIELDS


def test_the_400_page_speaks_the_browsers_language():
    page = lenient().get("/players/a%00b/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 400 and "Requête invalide" in page.content.decode()


def test_a_body_over_the_limit_is_refused_with_413_before_any_view(browser, settings, caplog):
    big = b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    refused = post(browser, "/api/races/", big)
    assert refused.status_code == 413 and refused.json()["error"]["code"] == "too_large"
    page = browser.generic("GET", "/", big, content_type="text/plain")
    assert page.status_code == 413
    assert "reachable without the entrance" in caplog.text  # a bypassed entrance, said loudly


def test_signing_up_while_logged_in_goes_to_your_profile():
    client = Client()
    form = {"username": "ada", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", form).url == "/me/"
    again = client.post("/accounts/signup/", {**form, "username": "bob"})
    assert (again.status_code, again.url) == (302, "/me/")
    assert client.get("/accounts/signup/").url == "/me/"
    assert list(User.objects.values_list("username", flat=True)) == ["ada"]


def test_a_sign_up_sent_twice_at_once_is_sent_to_log_in():
    """The second of two sign-ups of one guest session: its key became the first's
    account meanwhile (here: the key of an account made before)."""
    client = lenient()
    form = {"username": "bob", "password1": PASSWORD, "password2": PASSWORD}
    client.post("/accounts/signup/", {**form, "username": "ada"})
    client.logout()
    session = client.session
    session[identity.PLAYER_KEY] = User.objects.get(username="ada").account.player_key
    session.save()
    answer = client.post("/accounts/signup/", form)
    assert (answer.status_code, answer.url) == (302, "/accounts/login/")
    assert not User.objects.filter(username="bob").exists()


def outage(*args, **kwargs):
    raise OperationalError("connection refused (a test's outage)")


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "Something went wrong"), ("fr", "Un problème est survenu")]
)
def test_a_page_in_an_outage_is_a_translated_503(monkeypatch, todays_deal, lang, said):
    monkeypatch.setattr(daily, "daily_deal", outage)
    page = lenient().get("/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 503 and said in page.content.decode()
    assert page["Retry-After"]


def test_an_api_call_in_an_outage_is_a_503_server_error(monkeypatch):
    client = lenient()
    client.get(f"/play/{RULE_BOOK_DEAL}/")
    monkeypatch.setattr(SessionStore, "load", outage)
    answer = client.get("/api/races/ABCDEF/")
    assert answer.status_code == 503 and answer.json()["error"]["code"] == "server_error"


def test_a_session_that_cannot_be_loaded_or_saved_is_a_503(monkeypatch, todays_deal):
    client = lenient()
    client.get(f"/play/{RULE_BOOK_DEAL}/")  # a session with a player key
    monkeypatch.setattr(SessionStore, "load", outage)
    assert client.get("/").status_code == 503
    monkeypatch.undo()
    monkeypatch.setattr(SessionStore, "save", outage)
    assert lenient().get(f"/play/{RULE_BOOK_DEAL}/").status_code == 503
