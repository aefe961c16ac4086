"""How to play: reached from the lobby and the table, accessible, its worked example
drawn; the table's first-visit tip, dismissed once and for good, never over a card."""

import re

import pytest
from playwright.sync_api import expect

from tests.support import axe
from tests.support.table import open_deal, open_lobby, screenshot

pytestmark = pytest.mark.e2e

PHONE, LANDSCAPE = (390, 844), (844, 390)


def serious_violations(page):
    """axe-core's critical and serious violations on the page: [(rule, nodes)]."""
    return [(v["id"], len(v["nodes"])) for v in axe.violations(page) if v["impact"] in axe.BLOCKING]


def overlapping_cards(page, selector):
    """The cards whose box meets the box of `selector`."""
    return page.evaluate(
        """(selector) => {
            const tip = document.querySelector(selector).getBoundingClientRect();
            return [...document.querySelectorAll("#table .card")].filter((card) => {
                const box = card.getBoundingClientRect();
                return box.left < tip.right && tip.left < box.right
                    && box.top < tip.bottom && tip.top < box.bottom;
            }).map((card) => card.dataset.slot);
        }""",
        selector,
    )


def test_how_to_play_is_linked_from_the_lobby_draws_its_example_and_passes_axe(new_page, artifacts):
    page = open_lobby(new_page(width=PHONE[0], height=PHONE[1]))
    page.locator(".menu-button").click()  # a phone's header: the links are in its menu
    page.locator(".site-nav").get_by_role("link", name="How to play").click()
    expect(page).to_have_url(re.compile(r"/rules/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("The rules of Half Moon")
    expect(page.get_by_role("main")).to_be_visible()
    before = page.get_by_role("img", name="Deal HM1-N-AAAAAAB before its first move")
    after = page.get_by_role("img", name="Deal HM1-N-AAAAAAB after its first move")
    expect(before.locator("g[data-slot]")).to_have_count(20)
    expect(after.locator('g[data-slot="P8"] .scheme-face')).to_have_text("J♣")  # pile 8 uncovered
    expect(after.locator("g.marked")).to_have_count(3)  # the trio J♣ Q♥ K♥
    words = page.locator("#scheme-after .scheme-words")
    words.get_by_text("The scheme in words").click()
    expect(words).to_contain_text("pile 8: 7 cards, J♣ on top")
    screenshot(page, artifacts / "rules-phone.jpg")  # fails if it scrolls sideways
    assert serious_violations(page) == []
    page.get_by_role("link", name="Play the example deal").click()
    expect(page).to_have_url(re.compile(r"/play/HM1-N-AAAAAAB/$"))


def test_the_first_visit_tip_covers_no_card_and_once_dismissed_stays_away(new_page, artifacts):
    page = open_deal(new_page(width=PHONE[0], height=PHONE[1]))
    tip = page.get_by_role("complementary", name="Tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("New here?")
    assert overlapping_cards(page, "#first-tip") == []
    screenshot(page, artifacts / "first-tip-phone.jpg")
    page.set_viewport_size({"width": LANDSCAPE[0], "height": LANDSCAPE[1]})
    assert overlapping_cards(page, "#first-tip") == []
    page.set_viewport_size({"width": 1280, "height": 800})
    assert overlapping_cards(page, "#first-tip") == []
    screenshot(page, artifacts / "first-tip-desktop.jpg")
    assert serious_violations(page) == []

    with page.context.expect_page() as opened:  # beside the game, which goes on
        tip.get_by_role("link", name="How to play").click()
    rules = opened.value
    expect(rules.get_by_role("heading", level=1)).to_have_text("The rules of Half Moon")
    rules.close()
    expect(tip).to_be_hidden()  # following the link counts as seen

    fresh = open_deal(new_page(width=PHONE[0], height=PHONE[1]))
    dismiss = fresh.get_by_role("button", name="Got it")
    dismiss.focus()
    fresh.keyboard.press("Enter")
    expect(fresh.locator("#first-tip")).to_be_hidden()
    expect(fresh.locator("#table .card:focus")).to_have_count(1)  # on to the game
    open_deal(fresh)  # another visit in the same browser, its scripts run
    expect(fresh.locator("#first-tip")).to_be_hidden()
    fresh.get_by_role("button", name="Menu").click()  # a phone's table folds the header's links
    table_link = fresh.locator(".site-nav").get_by_role("link", name="How to play")
    expect(table_link).to_have_attribute("target", "_blank")
