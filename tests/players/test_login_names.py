"""One identity per log-in name: every spelling of a locked name is locked, on both
log-in forms, and no account can be made in another spelling of a taken name."""

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
LOG_INS = ["/accounts/login/", "/admin/login/"]
VARIANTS = [
    " victim",
    "victim ",
    "\tvictim",
    "victim\n",
    "victim\u00a0",
    "\uff56\uff49\uff43\uff54\uff49\uff4d",  # full-width
    "VICTIM",
]


@pytest.fixture
def victim(settings):
    settings.HALFMOON_LOGIN_FAILURES = 5
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # quick
    return User.objects.create_superuser("victim", password=PASSWORD)


def log_in(client, path, username, password=PASSWORD, address="192.0.2.1"):
    body = {"username": username, "password": password, "next": "/admin/"}
    return client.post(path, body, REMOTE_ADDR=address).status_code


def logged_in(client):
    return "_auth_user_id" in client.session


def lock(client, path, names):
    """Five failures, each from an address of its own, on the given spellings."""
    for i in range(5):
        assert log_in(client, path, names[i % len(names)], "guess", f"198.51.100.{i}") == 200


@pytest.mark.parametrize("failed", LOG_INS)
def test_no_spelling_of_a_locked_name_logs_in_on_either_form(client, victim, failed):
    lock(client, failed, ["victim"])
    answers = {
        (path, variant): log_in(client, path, variant, address="203.0.113.7")
        for path in LOG_INS
        for variant in VARIANTS
    }
    assert set(answers.values()) == {429} and not logged_in(client)


@pytest.mark.parametrize("path", LOG_INS)
def test_failures_on_spellings_count_toward_the_one_lock(client, victim, path):
    lock(client, path, VARIANTS)
    assert log_in(client, path, "victim", address="203.0.113.7") == 429
    assert not logged_in(client)


@pytest.mark.parametrize("path", LOG_INS)
def test_an_unlocked_name_logs_in_in_any_spelling_as_its_one_account(client, victim, path):
    for variant in VARIANTS:
        client.logout()
        assert log_in(client, path, variant) == 302, repr(variant)
        assert client.session["_auth_user_id"] == str(victim.pk)


def test_sign_up_refuses_every_other_spelling_of_a_taken_name(client, victim):
    for variant in [*VARIANTS, "Victim", "\uff36ictim"]:
        body = {"username": variant, "password1": PASSWORD, "password2": PASSWORD}
        assert client.post("/accounts/signup/", body).status_code == 400, repr(variant)
    assert User.objects.count() == 1


def test_sign_up_says_why_another_spelling_is_refused(client, victim, settings):
    body = {"username": "\uff36ICTIM ", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", body)
    assert "differs from a taken one only in case or width" in response.content.decode()
    settings.LANGUAGE_CODE = "fr"
    response = client.post("/accounts/signup/", body, HTTP_ACCEPT_LANGUAGE="fr")
    assert "ne diffère" in response.content.decode()
