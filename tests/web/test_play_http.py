"""
The lobby and the pages that open a game: this session's solo game on a deal
(/play/<code>/) and a race's room (/race/<room>/).
"""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Deal, Race
from game.race import actions
from tests.support.server import TODAYS_CODE

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def test_the_lobby_names_todays_deal_and_sets_the_csrf_cookie(client, todays_deal):
    response = client.get("/")
    assert response.status_code == 200
    assert TODAYS_CODE not in response.content.decode()
    assert response.context["daily_date"] == todays_deal.date
    assert "csrftoken" in response.cookies


def test_play_opens_this_sessions_solo_game_on_the_deal_and_finds_it_again(client):
    first = client.get("/play/hm1-n-aaaaaab/")
    assert first.status_code == 200
    assert first.context["mode"] == "solo" and first.context["deal_code"] == RULE_BOOK_DEAL
    assert first.context["ws_path"] == f"/ws/race/{first.context['room']}/"
    assert client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"] == first.context["room"]
    assert Client().get(f"/play/{RULE_BOOK_DEAL}/").context["room"] != first.context["room"]


@pytest.mark.parametrize(
    ("code", "status"), [("HM1-N-AAAAAA", 400), ("nonsense", 400), ("HM1-C-ABCDEFG", 404)]
)
def test_a_bad_deal_code_shows_the_lobby_with_a_clear_error(client, code, status):
    response = client.get(f"/play/{code}/")
    assert response.status_code == status
    assert response.templates[0].name == "game/lobby.html"
    assert response.context["deal_error"]


def test_a_race_page_renders_the_table_and_an_unknown_room_is_404(client):
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), "k" * 32)
    response = client.get(f"/race/{race.room.lower()}/")
    assert response.status_code == 200
    assert response.context["mode"] == "race" and response.context["room"] == race.room
    assert client.get("/race/ZZZZZZ/").status_code == 404


def test_opening_a_deal_whose_solo_game_was_left_for_hours_finds_it_still_in_play(client):
    first = client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"]
    long_ago = timezone.now() - datetime.timedelta(hours=2)
    Race.objects.filter(room=first).update(status=Race.RUNNING, started_at=long_ago)
    assert client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"] == first
    assert Race.objects.get(room=first).status == Race.RUNNING
