"""
A rated quick race in two browsers: two accounts choose "Rated", see the window
of ratings searched, race, and each sees both players' rating changes in the end
dialog; the profile's chart and the rating board show the new ratings.
"""

import itertools
import re

import pytest
from playwright.sync_api import expect

from game.engine.cards import parse_card
from game.engine.rules import move_error
from game.testing import live
from tests.daily.test_ranked_daily import sign_up
from tests.support.e2e import Server
from tests.support.table import card, give_up, open_lobby

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory, own_database):
    """A server of this module's own: the shared one's quick-race countdown (6 s) is
    shorter than two pages of a loaded machine take to open the race and connect, and a
    seat nobody connected to in time is dropped (the race called off)."""
    workdir = tmp_path_factory.mktemp("rated-server")
    with own_database("rated") as url:
        yield from serving(url, workdir)


def serving(url, workdir):
    env = live.environment(
        url,
        DEBUG="0",
        SECRET_KEY="e2e-tests-only",
        HALFMOON_DAILY_SECRET="e2e-tests-only-daily",
        SECURE_COOKIES="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        HALFMOON_QUICK_SHOW_S="20",
        # A race of seconds, one player giving up at once, rated all the same: this test
        # is the dialog's; tests/ratings/test_rating_farms.py holds the farming rules.
        HALFMOON_RATED_MIN_S="0",
        HALFMOON_RATED_MIN_MOVES="0",
    )
    with live.running(1, env, workdir) as (daphne,):
        yield Server(daphne.url, {}, env)


CHANGE = re.compile(r"^(\d+)\??\s\(([+\u2212±])(\d+)\)$")


def a_legal_move(page):
    """Two or three slots whose top cards make a removal, read off the table."""
    tops = {}
    for slot in [f"P{n}" for n in range(1, 13)] + [f"R{n}" for n in range(1, 9)]:
        text = card(page, slot).get_attribute("data-card")
        if text:
            tops[slot] = parse_card(text)
    for size in (2, 3):
        for slots in itertools.combinations(tops, size):
            if move_error([tops[slot] for slot in slots]) is None:
                return slots
    raise AssertionError(f"no removal among the tops {tops}")


def rating_cells(page):
    """{name: (rating, sign, points)} of the end dialog's rating column."""
    rows = page.locator("#standings-rows tr")
    expect(rows).to_have_count(2)
    found = {}
    for index in range(2):
        cells = rows.nth(index).locator("td")
        match = CHANGE.match(cells.nth(6).inner_text().strip())
        assert match, cells.nth(6).inner_text()
        found[cells.nth(1).inner_text().strip()] = match.groups()
    return found


def test_two_accounts_race_rated_and_see_their_rating_changes(new_page):
    ada, bea = new_page(), new_page()
    for page, name in ((ada, "rated-ada"), (bea, "rated-bea")):
        sign_up(page, name)
        open_lobby(page)
        page.get_by_label("Rated").check()
        page.get_by_role("button", name="Quick race").click()
        if page == ada:  # alone in the rated line: its window is searched, widening
            window = re.compile(r"searching 1[34]\d\d–1[67]\d\d")
            expect(ada.locator("#quick-window")).to_have_text(window)
    for page in (ada, bea):
        expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"), timeout=25_000)
        expect(page.locator('body[data-phase="running"]')).to_be_attached(timeout=30_000)
    assert ada.url == bea.url
    expect(card(ada, "P1")).not_to_have_attribute("data-card", "")
    for slot in a_legal_move(ada):
        card(ada, slot).click()
    expect(ada.locator("#moves")).to_have_text("1")
    give_up(bea)
    give_up(ada)
    for page in (ada, bea):
        dialog = page.locator("#standings")
        expect(dialog).to_be_visible()
        expect(dialog.locator("[data-rating-column]")).to_be_visible()
        cells = rating_cells(page)
        assert cells["rated-ada"][1] == "+" and cells["rated-bea"][1] == "\u2212"
        assert int(cells["rated-ada"][0]) == 1500 + int(cells["rated-ada"][2])
        assert int(cells["rated-bea"][0]) == 1500 - int(cells["rated-bea"][2])
    ada_rating = cells["rated-ada"][0]
    ada.goto("/players/rated-ada/")
    expect(ada.locator("[data-rating]")).to_contain_text(f"{ada_rating}?")
    expect(ada.locator("[data-rated-won]")).to_have_text("1")
    expect(ada.locator("#rating-chart circle")).to_have_count(1)
    bea.goto("/ratings/")
    expect(bea.locator(".rating-board tr.you")).to_contain_text("rated-bea")
    expect(bea.locator(".rating-board")).to_contain_text(f"{ada_rating}?")
