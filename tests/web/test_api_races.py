"""
The races JSON API: creating a race (CSRF, deals, input errors) and reading
its state.
"""

import pytest

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Race
from game.players import identity
from tests.support.server import post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def test_creating_a_race_needs_the_csrf_token(browser):
    response = browser.post("/api/races/", "{}", content_type="application/json")
    assert response.status_code == 403


@pytest.mark.parametrize("deal", [RULE_BOOK_DEAL, "random"])
def test_creating_a_race_gives_its_room_page_and_socket(browser, deal):
    response = post(browser, "/api/races/", {"deal": deal, "name": "Ada"})
    assert response.status_code == 201
    body = response.json()
    race = Race.objects.get(room=body["room"])
    assert body == {"room": race.room, "url": f"/race/{race.room}/", "ws": f"/ws/race/{race.room}/"}
    assert race.mode == Race.RACE and list(race.entries.values_list("name", flat=True)) == ["Ada"]
    key = browser.session[identity.PLAYER_KEY]
    assert race.host_key == key
    state = browser.get(f"/api/races/{race.room}/").json()
    assert state["type"] == "state" and state["you"]["host"] is True


def test_a_solo_daily_race_from_the_api_is_the_players_one_attempt(browser):
    first = post(browser, "/api/races/", {"deal": "daily", "solo": True}).json()
    second = post(browser, "/api/races/", {"deal": "daily", "solo": True}).json()
    assert first == second
    assert Race.objects.get(room=first["room"]).mode == Race.DAILY


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("nope", 400, "bad_json"),
        ("[]", 400, "bad_json"),
        ("[" * 2000 + "]" * 2000, 400, "bad_json"),
        ({"deal": 5}, 400, "bad_field"),
        ({"deal": "random", "solo": "yes"}, 400, "bad_field"),
        ({"deal": "HM1-X-AAAAAAA"}, 400, "bad_deal"),
        ({"deal": "HM1-C-AAAAAAA"}, 404, "no_such_deal"),
        ({"deal": "random", "name": ""}, 400, "bad_name"),
        ({"deal": "random", "name": "x" * 25}, 400, "bad_name"),
        ({"deal": "random", "pad": "x" * 5000}, 413, "too_large"),
    ],
)
def test_bad_api_input_is_a_clear_4xx(browser, body, status, code):
    response = post(browser, "/api/races/", body)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_api_race_state_for_an_unknown_room_is_404(client):
    response = client.get("/api/races/ZZZZZZ/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_such_race"
