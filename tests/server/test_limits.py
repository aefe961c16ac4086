"""
Per-player rate limits on the HTTP side: they stop floods, not a player who
waits for a quick race.
"""

import pytest

from game.engine.examples import RULE_BOOK_DEAL

from .conftest import post

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
