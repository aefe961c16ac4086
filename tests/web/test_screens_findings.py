"""Issue #33's findings 4 and 11, as the pages say them: the lobby and the sign-up tell
the daily deal's rules the daily page tells, the password rules show before a submit,
every table page has its <h1>, the header links the events and the rating board, the
day's board links the all-time board once and no day that never was, two quick racers
with no name are told apart, a restarted solo game keeps its code's address, and a
player's password page is the site's, not the admin's."""

import datetime
import re

import pytest
from django.contrib.auth.models import User

from game.base import days
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import quick
from game.models import DailyDeal, Deal, Race
from game.templatetags.halfmoon import player_name
from tests.support.server import post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]
GUESTS_RULE = "guests play a deal of their own"


def test_the_lobby_says_guests_play_a_deal_of_their_own_as_the_daily_page_does(client):
    lobby = client.get("/").content.decode()
    assert GUESTS_RULE in lobby and GUESTS_RULE in client.get("/daily/").content.decode()
    assert "everyone plays the same deal today" not in lobby


def test_the_sign_up_says_when_a_new_account_ranks_and_shows_the_password_rules(client, settings):
    settings.HALFMOON_RANKED_MIN_AGE_H = 24
    page = client.get("/accounts/signup/").content.decode()
    assert "ranks once the account is 24 hours old" in page
    for described in re.findall(r'aria-describedby="([^"]+)"', page):
        for name in described.split():
            assert f'id="{name}"' in page, f"{name} is pointed at, never rendered"
    assert "at least 8 characters" in page  # Django's rule, before any submit


@pytest.mark.parametrize("path", [f"/play/{RULE_BOOK_DEAL}/", "/offline/play/"])
def test_a_table_page_has_its_heading(client, path):
    page = client.get(path).content.decode()
    assert re.search(r"<h1[^>]*>[^<]+</h1>", page), path


def test_the_header_links_the_events_and_the_rating_board(client):
    header = client.get("/rules/").content.decode().split("</nav>")[0]
    assert 'href="/events/"' in header and 'href="/ratings/"' in header


def test_the_days_board_links_the_all_time_board_once_and_no_day_that_never_was(client):
    today = days.today()
    page = client.get(f"/daily/{today.isoformat()}/").content.decode()
    assert page.count('href="/daily/all-time/"') == 1
    assert "Previous day" not in page  # a new install: yesterday has no board
    yesterday = today - datetime.timedelta(days=1)
    DailyDeal.objects.create(
        date=yesterday,
        deal=Deal.for_code("HM1-N-AAAAAAD"),
        guest_deal=Deal.for_code("HM1-N-AAAAAAE"),
    )
    page = client.get(f"/daily/{today.isoformat()}/").content.decode()
    assert f'href="/daily/{yesterday.isoformat()}/" rel="prev"' in page


def test_two_quick_racers_with_no_name_are_told_apart(settings):
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    quick.poll("a" * 32, "Player")
    race = Race.objects.get(room=quick.poll("b" * 32, "Player")["room"])
    names = sorted(race.entries.values_list("name", flat=True))
    assert names == ["Player 1", "Player 2"]
    assert player_name("Player 2") == "Player 2"


def test_a_restarted_solo_game_keeps_its_codes_address(browser):
    browser.get(f"/play/{RULE_BOOK_DEAL}/")
    room = Race.objects.get(mode=Race.SOLO).room
    answer = post(browser, f"/api/races/{room}/restart/", {})
    assert answer.status_code == 201
    assert answer.json()["url"] == f"/play/{RULE_BOOK_DEAL}/"  # not /race/<room>/


def test_a_players_password_page_is_the_sites_not_the_admins(client):
    User.objects.create_user("pat", password="half-moon-42!")
    client.login(username="pat", password="half-moon-42!")
    page = client.get("/accounts/password/").content.decode()
    assert 'class="site-header' in page and "breadcrumbs" not in page
    done = client.get("/accounts/password/done/").content.decode()
    assert 'class="site-header' in done and "breadcrumbs" not in done
