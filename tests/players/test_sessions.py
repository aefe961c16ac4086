"""
A look costs no session row, and neither does a refusal: the lobby and the pages
that only show things give no player key, and a refused request (a 429, a 404)
stores no new session. A player who opens a game gets one and keeps it. Expired
sessions go in the daily job (`manage.py daily_upkeep`).
"""

import datetime
from io import StringIO

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from game.base import days
from game.deals import daily
from game.engine.examples import RULE_BOOK_DEAL
from game.models import Deal
from game.players import identity
from tests.support.server import post

pytestmark = pytest.mark.django_db

CLIENTS = 20


def looks(date):
    return ["/", f"/daily/{date}/", "/daily/all-time/", "/me/", "/api/daily/"]


def test_fresh_clients_looking_at_pages_store_no_session(todays_deal):
    before = Session.objects.count()
    for _ in range(CLIENTS):
        client = Client()
        for url in looks(todays_deal.date.isoformat()):
            assert client.get(url).status_code == 200, url
    assert Session.objects.count() == before


def test_fresh_clients_refused_store_no_session(settings):
    settings.HALFMOON_CREATE_ADDRESS_LIMIT = "0/60"  # every creation refused: a 429
    before = Session.objects.count()
    for _ in range(CLIENTS):
        client = Client(enforce_csrf_checks=True)
        client.get("/")
        assert post(client, "/api/races/", {"deal": RULE_BOOK_DEAL}).status_code == 429
        assert Client().get(f"/play/{RULE_BOOK_DEAL}/").status_code == 429
        assert Client().get("/race/ZZZZZZ/").status_code == 404
    assert Session.objects.count() == before


def test_a_player_who_opens_a_game_gets_a_session_and_keeps_their_key(todays_deal):
    client = Client()
    client.get("/")
    assert Session.objects.count() == 0
    assert client.get(f"/play/{RULE_BOOK_DEAL}/").status_code == 200
    assert Session.objects.count() == 1
    key = client.session[identity.PLAYER_KEY]
    room = client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"]
    for url in ["/", f"/race/{room}/", "/me/", f"/daily/{todays_deal.date.isoformat()}/"]:
        client.get(url)
    assert client.get(f"/api/races/{room}/").json()["you"]["host"] is True
    assert client.session[identity.PLAYER_KEY] == key and Session.objects.count() == 1


def test_the_daily_job_removes_expired_sessions_and_analyses_the_days_ahead():
    for expires_in in (datetime.timedelta(days=1), -datetime.timedelta(days=30)):
        session = SessionStore()
        session[identity.PLAYER_KEY] = identity.new_key()
        session.set_expiry(timezone.now() + expires_in)
        session.save()
    out = StringIO()
    call_command("daily_upkeep", "--days", "0", "--workers", "1", stdout=out, stderr=StringIO())
    assert "1 expired sessions removed" in out.getvalue()
    assert Session.objects.count() == 1
    first = next(daily.candidates(days.today()))
    assert Deal.objects.get(code=first).verdict
