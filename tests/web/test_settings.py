"""The two settings: move errors (the rule book's exact texts) and placement help."""

import re

import pytest
from playwright.sync_api import expect

from tests.support.table import card, open_deal, set_options, tap, window_shot

pytestmark = pytest.mark.e2e

MOVE_ERRORS = {
    "en": ("The sum must equal 11", "Requires a Jack, a Queen and a King"),
    "fr": ("La somme doit être égale à 11", "Nécessite un Valet, une Dame et un Roi"),
    "ca": ("La suma ha de ser igual a 11", "Cal una Sota, una Dama i un Rei"),
    "ro": ("Suma trebuie să fie egală cu 11", "Sunt necesari un Valet, o Damă și un Rege"),
}
DIMMED = re.compile(r"\bdimmed\b")


def test_move_errors_are_off_at_first(page):
    open_deal(page)
    expect(page.locator('#settings input[name="moveErrors"]')).not_to_be_checked()
    tap(page, "P1", "P2")
    # The tap that would show the rule's text says "Selection cleared" instead, in the
    # same handler: once that is said, the text would have shown already.
    expect(page.locator('main > [data-announcer="game"]')).to_have_text("Selection cleared")
    expect(page.locator("#move-error")).to_be_hidden()
    expect(page.locator("#move-error")).to_have_text("")


@pytest.mark.parametrize("lang", ["en", "fr", "ca", "ro"])
def test_move_errors_show_the_rule_books_texts(new_page, lang):
    page = open_deal(new_page(locale=lang))
    expect(page.locator("html")).to_have_attribute("lang", lang)
    set_options(page, moveErrors=True)
    sum_not_11, needs_jqk = MOVE_ERRORS[lang]
    tap(page, "P1", "P2")  # 5♠ then A♥
    expect(page.locator("#move-error")).to_have_text(sum_not_11)
    tap(page, "P3", "P1")  # K♥ then 5♠
    expect(page.locator("#move-error")).to_have_text(needs_jqk)


def test_settings_are_remembered_by_the_browser(page):
    open_deal(page)
    set_options(page, moveErrors=True, placementHelp=True)
    page.reload()
    expect(page.locator('#settings input[name="moveErrors"]')).to_be_checked()
    expect(page.locator('#settings input[name="placementHelp"]')).to_be_checked()


def test_placement_help_dims_every_card_that_cannot_go_with_the_selected_one(page):
    open_deal(page)
    set_options(page, placementHelp=True)
    expect(page.locator(".card.dimmed")).to_have_count(0)
    tap(page, "P1")  # 5♠: only the sixes can go with it
    expect(page.locator(".card.dimmed")).to_have_count(17)
    for slot in ("P1", "P8", "R2"):  # 5♠ itself, 6♦, 6♠
        expect(card(page, slot)).not_to_have_class(DIMMED)
    tap(page, "P1")
    expect(page.locator(".card.dimmed")).to_have_count(0)
    tap(page, "P5")  # Q♥: a Jack or a King may follow
    for slot in ("P3", "P12", "R7"):  # K♥, K♥, J♥
        expect(card(page, slot)).not_to_have_class(DIMMED)
    expect(page.locator(".card.dimmed")).to_have_count(16)


def test_without_placement_help_nothing_is_dimmed(page):
    open_deal(page)
    tap(page, "P1")
    expect(page.locator(".card.dimmed")).to_have_count(0)


MEASURE_WHEN_SHOWN = """(cards) => {
    const boxOf = (el) => {
        const box = el.getBoundingClientRect();
        return box.width || box.height ? {x: box.x, y: box.y, width: box.width, height: box.height}
            : null;
    };
    const bubble = document.querySelector("#move-error");
    new MutationObserver((changes, observer) => {
        if (bubble.hidden) return;
        observer.disconnect();
        bubble.getAnimations().forEach((animation) => animation.finish());  // where it rests
        window.moveErrorBoxes = [boxOf(bubble), [...document.querySelectorAll(cards)].map(boxOf)];
    }).observe(bubble, {attributes: true, attributeFilter: ["hidden"]});
}"""
"""Measures, the moment the move error shows, its box and every card's box (a box as
Playwright's `bounding_box()` gives it: None for an element that shows nothing), into
`window.moveErrorBoxes`. Measured by the page itself: the bubble hides after 2.6 s, which
a loaded machine can spend between a tap and the test's next look."""


def test_a_move_error_never_covers_a_card_on_a_laptop(new_page, artifacts):
    page = open_deal(new_page(width=1280, height=720))
    set_options(page, moveErrors=True)
    page.evaluate(MEASURE_WHEN_SHOWN, ".card")
    tap(page, "P1", "P2")
    box, cards = page.wait_for_function("window.moveErrorBoxes").json_value()
    assert box, "the move error showed nothing"
    window_shot(page, artifacts / "move-error-laptop.jpg")
    for slot in range(20):
        other = cards[slot]
        apart = (
            box["x"] + box["width"] <= other["x"]
            or other["x"] + other["width"] <= box["x"]
            or box["y"] + box["height"] <= other["y"]
            or other["y"] + other["height"] <= box["y"]
        )
        assert apart, (
            f"the move error covers {page.locator('.card').nth(slot).get_attribute('data-slot')}"
        )
