"""What every response carries, and the admin door: security headers a browser
enforces on the real client, and log-in guessing throttled."""

import re

import pytest
from django.contrib.auth.models import User

from game.engine.examples import RULE_BOOK_DEAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_cache(settings):
    """A cache of this test's own: failure counts from other runs never leak in."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "login-throttle-test",
        }
    }
    from django.core.cache import cache

    cache.clear()


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


def test_failed_admin_log_ins_are_throttled_per_address(client, settings, private_cache):
    settings.HALFMOON_LOGIN_FAILURES = 3
    User.objects.create_superuser("staff", password="correct horse battery staple")
    wrong = {"username": "staff", "password": "guess", "next": "/admin/"}
    assert [client.post("/admin/login/", wrong).status_code for _ in range(3)] == [200] * 3
    right = {**wrong, "password": "correct horse battery staple"}
    assert client.post("/admin/login/", right).status_code == 429
    elsewhere = client.post("/admin/login/", right, REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 302
