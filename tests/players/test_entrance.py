"""What every response carries, and the admin door: security headers a browser
enforces on the real client, and log-in guessing throttled."""

import re

import pytest
from django.contrib.auth.models import User

from game.engine.examples import RULE_BOOK_DEAL

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", f"/play/{RULE_BOOK_DEAL}/", "/admin/login/"])
def test_every_page_carries_a_policy_that_allows_only_this_origin(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "connect-src 'self' ws://testserver" in policy
    assert "unsafe-eval" not in policy


@pytest.mark.parametrize("path", ["/", f"/play/{RULE_BOOK_DEAL}/"])
def test_the_client_pages_have_no_inline_script_or_style_element(client, path):
    """What the policy forbids, the pages must not need."""
    html = client.get(path).content.decode()
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all("src=" in tag for tag in scripts)
    assert "<style" not in html
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handler


def test_a_secure_request_gets_the_hsts_header(client, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    assert "max-age=31536000" in client.get("/", secure=True)["Strict-Transport-Security"]
    assert "Strict-Transport-Security" not in client.get("/")


PASSWORD = "correct horse battery staple"
LOG_INS = ["/admin/login/", "/accounts/login/"]


@pytest.fixture
def staff(settings):
    settings.HALFMOON_LOGIN_FAILURES = 3
    settings.HALFMOON_TRUSTED_PROXIES = ["10.0.0.0/8"]
    return User.objects.create_superuser("staff", password=PASSWORD)


def log_in(client, path="/admin/login/", username="staff", password=PASSWORD, **extra):
    body = {"username": username, "password": password, "next": "/admin/"}
    return client.post(path, body, **extra).status_code


def logged_in(client):
    return "_auth_user_id" in client.session


def test_failed_admin_log_ins_are_throttled_per_address(client, staff):
    assert [log_in(client, username=f"guess{i}", password="guess") for i in range(3)] == [200] * 3
    assert log_in(client) == 429 and not logged_in(client)
    assert client.get("/admin/login/").status_code == 200  # the form still shows
    assert log_in(client, REMOTE_ADDR="192.0.2.9") == 302 and logged_in(client)


@pytest.mark.parametrize("failed, then", [LOG_INS, LOG_INS[::-1]])
def test_failures_on_one_log_in_form_lock_the_address_out_of_the_other(client, staff, failed, then):
    assert [log_in(client, failed, f"guess{i}", "guess") for i in range(3)] == [200] * 3
    assert log_in(client, then) == 429 and not logged_in(client)


def test_failures_through_a_trusted_proxy_count_per_client(client, staff):
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    for i in range(3):
        log_in(
            client, username=f"guess{i}", password="guess", HTTP_X_FORWARDED_FOR="1.1.1.1", **proxy
        )
    assert log_in(client, HTTP_X_FORWARDED_FOR="1.1.1.1", **proxy) == 429
    assert log_in(client, HTTP_X_FORWARDED_FOR="6.6.6.6, 2.2.2.2", **proxy) == 302


def test_a_forged_forwarded_for_from_an_untrusted_peer_changes_nothing(client, staff):
    for i in range(3):
        forged = {"HTTP_X_FORWARDED_FOR": f"1.1.1.{i}", "REMOTE_ADDR": "192.0.2.1"}
        log_in(client, username=f"guess{i}", password="guess", **forged)
    forged = {"HTTP_X_FORWARDED_FOR": "2.2.2.2", "REMOTE_ADDR": "192.0.2.1"}
    assert log_in(client, **forged) == 429 and not logged_in(client)


@pytest.mark.parametrize("path", LOG_INS)
def test_failures_for_one_username_from_many_addresses_lock_that_username(client, staff, path):
    User.objects.create_user("player", password=PASSWORD)
    for i in range(3):
        log_in(client, LOG_INS[i % 2], password="guess", REMOTE_ADDR=f"192.0.2.{i}")
    assert log_in(client, path, REMOTE_ADDR="192.0.2.50") == 429 and not logged_in(client)
    assert log_in(client, path, "STAFF", "guess", REMOTE_ADDR="192.0.2.51") == 429
    assert log_in(client, "/accounts/login/", "player", REMOTE_ADDR="192.0.2.50") == 302
