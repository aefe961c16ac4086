"""
The entrance at work: nginx running deploy/nginx.conf in front of two daphne
processes started as docker-compose.yml starts web1 and web2, with compose's
default settings, and reached on a port other than 80, as `docker compose up`
publishes it (http://localhost:8000/). game/testing/entrance.py renders the file
for the test and says what it substitutes: addresses and paths only.

Which replica served a request is read from each daphne's access log, what
nginx did with it from nginx's own; nothing in the app tells players which
process they are on.
"""

import pytest
from django.core.management import call_command

from game.engine.examples import RULE_BOOK_DEAL
from game.testing.entrance import entrance
from game.testing.live import Browser

from .conftest import entrance_env, forget_counts

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.nginx, pytest.mark.multiprocess]
SIGNUPS = 3
LIMITS = {"HALFMOON_SIGNUP_ADDRESS_LIMIT": f"{SIGNUPS}/3600"}
"""Accounts one client address may create here."""
PASSWORD = "moon-race-42!"


@pytest.fixture(scope="module")
def door(django_db_setup, django_db_blocker, nginx_path, tmp_path_factory):
    """One entrance for the tests that leave its replicas alive. They only talk to it,
    so the database is emptied once, after the replicas have stopped (emptied after
    each test, it would be while the replicas are writing)."""
    from conftest import redis_address, require  # the suite's root conftest

    require("redis")
    env, log_dir = entrance_env(redis_address(), **LIMITS), tmp_path_factory.mktemp("door")
    with entrance(nginx_path, env, log_dir) as front:
        yield front
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def front(door, redis_url):
    """The module's entrance, nothing counted yet against this address's limits."""
    forget_counts(redis_url)
    return door


def test_a_race_is_created_and_players_sign_up_and_log_in_on_a_port_other_than_80(front):
    """Each POST carries the Origin http://127.0.0.1:<port>, as a browser's does; Django
    compares it with the Host nginx passes on, which must keep the port (with `$host`
    every one of them was refused with 403)."""
    url = front.url
    assert front.port != 80
    ada = Browser()
    ada.get(f"{url}/")
    race = ada.post(f"{url}/api/races/", {"deal": RULE_BOOK_DEAL, "name": "Ada"})
    assert race["url"] == f"/race/{race['room']}/"
    ada.get(f"{url}/accounts/signup/")
    fields = {"username": "ada-at-the-door", "password1": PASSWORD, "password2": PASSWORD}
    assert ada.submit(f"{url}/accounts/signup/", fields) == (200, f"{url}/me/")
    elsewhere = Browser()
    elsewhere.get(f"{url}/accounts/login/")
    credentials = {"username": "ada-at-the-door", "password": PASSWORD}
    assert elsewhere.submit(f"{url}/accounts/login/", credentials) == (200, f"{url}/me/")
    assert b"ada-at-the-door" in elsewhere.get(f"{url}/me/")[1]
