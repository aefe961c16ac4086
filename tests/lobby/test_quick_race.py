"""The quick race: strangers wait together, see how many they are, and may cancel."""

import re

import pytest
from playwright.sync_api import expect

from game.testing import live
from tests.support.table import open_lobby

pytestmark = pytest.mark.e2e


def test_two_quick_racers_see_each_other_waiting_can_cancel_and_are_matched(new_page):
    ada, bea = open_lobby(new_page()), open_lobby(new_page())
    ada.locator("#race-form").get_by_label("Your name").fill("Ada")
    ada.get_by_role("button", name="Quick race").click()
    expect(ada.locator("#quick-count")).to_have_text("1 player waiting")
    ada.get_by_role("button", name="Cancel").click()
    expect(ada.locator("#quick-status")).to_be_hidden()
    expect(ada.get_by_role("button", name="Quick race")).to_be_enabled()

    bea.get_by_role("button", name="Quick race").click()
    expect(bea.locator("#quick-count")).to_have_text("1 player waiting")  # Ada left the queue
    ada.get_by_role("button", name="Quick race").click()
    for page in (ada, bea):
        expect(page.locator("#quick-count")).to_have_text("2 players waiting")
    for page in (ada, bea):  # a pair starts after 10 s
        expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"), timeout=20_000)
    assert ada.url == bea.url
    for page in (ada, bea):
        expect(page.locator('body[data-phase="running"]')).to_be_attached(timeout=15_000)


def test_a_quick_race_no_one_else_came_to_sends_its_player_back_to_the_queue(new_page, server):
    """Seven scripted sessions take the other seats and never connect: Ada is not left
    racing alone; she is back in the queue, first in line, and races the next comer."""
    ada = open_lobby(new_page())  # first: seats not polled for 5 s leave the queue
    no_shows = [live.Browser() for _ in range(7)]
    for no_show in no_shows:
        no_show.get(f"{server.url}/")
    for no_show in no_shows:
        assert "waiting" in no_show.post(f"{server.url}/api/quick/", {})
    ada.get_by_role("button", name="Quick race").click()
    expect(ada).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    called_off = ada.url
    expect(ada.locator("#quick-count")).to_have_text("1 player waiting", timeout=20_000)
    bea = open_lobby(new_page())
    bea.get_by_role("button", name="Quick race").click()
    for page in (ada, bea):
        expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
        expect(page.locator('body[data-phase="running"]')).to_be_attached(timeout=15_000)
    assert ada.url == bea.url != called_off
