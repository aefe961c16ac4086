"""
Per-player rate limits on the HTTP side: they stop floods, not a player who
waits for a quick race.
"""

import json

import pytest
from django.test import Client

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Follow
from tests.support.server import post, signed_up

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def test_posts_are_rate_limited_per_player(browser, settings):
    settings.HALFMOON_CREATE_LIMIT = "10/3600"
    statuses = [post(browser, "/api/races/", {"deal": "random"}).status_code for _ in range(12)]
    assert statuses[:10] == [201] * 10 and statuses[-1] == 429


def test_opening_solo_games_is_rate_limited_per_player(client, settings):
    settings.HALFMOON_CREATE_LIMIT = "10/3600"
    statuses = [client.get(f"/play/{RULE_BOOK_DEAL}/").status_code for _ in range(12)]
    assert statuses[:10] == [200] * 10 and statuses[-1] == 429


def test_waiting_for_a_quick_race_may_poll_every_second_for_half_a_minute(browser):
    """30 polls at once fit the limit, so one a second for 30 s does: no window counts more."""
    statuses = {post(browser, "/api/quick/", {}).status_code for _ in range(30)}
    assert statuses == {202}


def _api(client, method, url, body=None):
    return getattr(client, method)(url, json.dumps(body or {}), content_type="application/json")


def test_follow_toggles_stop_at_the_social_limit_per_player(settings):
    settings.HALFMOON_SOCIAL_LIMIT = "10/3600"
    ada, _bob = signed_up("ada"), signed_up("bob")
    toggles = [
        _api(ada, method, "/api/follows/bob/").status_code
        for _ in range(6)
        for method in ("post", "delete")
    ]
    assert toggles[:10] == [200] * 10 and set(toggles[10:]) == {429}
    assert not Follow.objects.exists()  # the refused follow was not made


def test_challenge_and_cancel_cycles_stop_at_the_social_limit_per_address(settings):
    settings.HALFMOON_SOCIAL_ADDRESS_LIMIT = "3/3600"
    ada, _bob = signed_up("ada"), signed_up("bob")
    _api(ada, "post", "/api/follows/bob/")  # the first of the three
    cycles = []
    for _ in range(3):
        sent = _api(ada, "post", "/api/challenges/", {"name": "bob"})
        cycles.append(sent.status_code)
        if sent.status_code == 201:
            cancel = f"/api/challenges/{sent.json()['id']}/cancel/"
            cycles.append(_api(ada, "post", cancel).status_code)
    assert cycles == [201, 200, 429, 429]
    answer = _api(signed_up("cy"), "post", "/api/follows/bob/")  # another account there
    assert answer.json()["error"]["code"] == "rate_limited"


@pytest.mark.parametrize("url", ["/players/ada/", "/ratings/", "/me/"])
def test_profile_and_rating_pages_stop_at_the_api_s_read_limit(settings, url):
    signed_up("ada")
    settings.HALFMOON_READ_ADDRESS_LIMIT = "5/3600"
    reader = Client()
    statuses = [reader.get(url).status_code for _ in range(5)]
    refused = reader.get(url)
    assert statuses == [200] * 5 and refused.status_code == 429
    page = refused.content.decode()
    assert "Too many requests" in page and "Wait a minute" in page
    french = reader.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Attendez une minute" in french
    stranger = Client()  # the same address, another session: the address's count holds
    assert stranger.get("/api/players/ada/").status_code == 429
