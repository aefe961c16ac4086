"""
The installed app opened with no network: the start page (the manifest's start_url),
/daily/ and any other page show the site's offline page, with the practice game one
tap away, /rules/ the rules as kept, and no page kept names the last account. The
header's install button shows only while the browser offers to install.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.race.test_give_up_and_restart import sign_up
from tests.support.table import card

from .test_delight import context_for, install

pytestmark = pytest.mark.e2e

PRACTICE = re.compile(r"/play/HM1-N-[A-Z]{7}/$")


@pytest.mark.parametrize("path", ["/", "/daily/", "/events/"])
def test_offline_a_page_opens_the_offline_page_and_its_practice_game(chromium, server, path):
    context = context_for(chromium, server)
    page = context.new_page()
    install(page)
    context.set_offline(True)
    try:
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
        practice = page.get_by_role("link", name="Play a practice game")
        expect(practice).to_have_attribute("href", PRACTICE)  # a new deal each visit
        practice.click()
        expect(page.locator("body[data-offline]")).to_be_attached()
        expect(card(page, "P1")).not_to_have_attribute("data-card", "")
        assert PRACTICE.search(page.url)
    finally:
        context.close()


def test_offline_the_rules_open_whole_and_link_back_to_the_offline_page(chromium, server):
    context = context_for(chromium, server)
    page = context.new_page()
    install(page)
    context.set_offline(True)
    try:
        page.goto("/rules/")
        expect(page.get_by_role("heading", level=1)).to_have_text("The rules of Half Moon")
        expect(page.locator("figure.scheme").first).to_be_visible()  # the pictures too
        expect(page.locator("section[aria-labelledby=end]")).to_be_attached()
        page.get_by_role("link", name="Lobby").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    finally:
        context.close()


def test_offline_the_kept_pages_name_nobody_after_a_log_out(chromium, server):
    context = context_for(chromium, server)
    page = context.new_page()
    sign_up(page, "offline-wren")
    install(page)
    page.get_by_role("button", name="Log out").click()
    context.set_offline(True)
    try:
        for path in ("/", "/rules/"):
            page.goto(path)
            expect(page.locator(".site-nav")).not_to_contain_text("offline-wren")
    finally:
        context.close()


OFFER = """() => {
  const offer = new Event("beforeinstallprompt", { cancelable: true });
  offer.prompt = () => { window.prompted = (window.prompted || 0) + 1; return Promise.resolve(); };
  dispatchEvent(offer);
  return offer.defaultPrevented;
}"""


def test_the_install_button_shows_only_while_the_browser_offers_to_install(page):
    page.goto("/rules/")
    button = page.locator("#install-app")
    expect(button).to_be_hidden()  # no offer from a headless browser
    page.wait_for_function("() => document.readyState === 'complete'")
    assert page.evaluate(OFFER)  # the browser's own banner gives way to the button
    expect(button).to_be_visible()
    expect(button).to_have_text("Install the app")
    button.click()
    assert page.evaluate("window.prompted") == 1
    expect(button).to_be_hidden()  # an offer prompts once
