"""An account wins today's daily deal, finds itself ranked, on its profile, in the
month view and on the all-time board; the two boards fit a phone."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_WIN
from tests.support.table import open_daily, play_move, screenshot

pytestmark = pytest.mark.e2e

NAME = "moonwalker"
PASSWORD = "half-moon-42!"


def sign_up(page, name=NAME):
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator(".site-nav")).to_contain_text(name)


def test_an_account_wins_todays_deal_and_finds_itself_ranked(new_page, artifacts):
    page = new_page()
    sign_up(page)
    open_daily(page)  # the day's page, then "Play"
    for number, move in enumerate(RULE_BOOK_WIN, start=1):
        play_move(page, move, number)
    expect(page.locator("#won")).to_be_visible()

    today = datetime.datetime.now(datetime.UTC).date()
    page.goto(f"/daily/{today.isoformat()}/")
    mine = page.locator(".leaderboard tbody tr.you")
    expect(mine).to_contain_text(NAME)
    expect(mine.locator("td").first).to_have_text(re.compile(r"^\d+$"))  # ranked: no brackets
    expect(mine.locator(".no-undo")).to_be_visible()

    page.goto(f"/players/{NAME}/")
    expect(page.locator(".profile-stats").first).to_contain_text("Games won")
    expect(page.locator(".leaderboard.history tbody tr").first).to_contain_text("won")

    page.goto(f"/daily/{today.isoformat()}/")
    page.get_by_role("link", name="Daily winners").click()
    expect(page).to_have_url(re.compile(rf"/daily/month/{today:%Y-%m}/$"))
    expect(page.locator(".leaderboard.month tbody tr").first).to_contain_text(NAME)
    expect(page.locator("svg.month-chart .bar-time")).to_have_count(1)
    screenshot(page, artifacts / "month.jpg")

    page.get_by_role("link", name="All-time board").first.click()
    expect(page.locator(".leaderboard tbody tr.you")).to_contain_text(NAME)
    expect(page.locator("svg.chart .bar-score")).not_to_have_count(0)
    screenshot(page, artifacts / "all-time.jpg")
    page.get_by_role("link", name="Best times").click()
    expect(page.locator(".leaderboard tbody tr.you")).to_contain_text(NAME)

    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, artifacts / "all-time-phone.jpg")
    page.goto(f"/daily/month/{today:%Y-%m}/")
    screenshot(page, artifacts / "month-phone.jpg")
