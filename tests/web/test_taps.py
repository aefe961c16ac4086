"""Touching the cards, as the rule book's "Toucher les cartes" says, on HM1-N-AAAAAAB."""

import json
import re

import pytest
from playwright.sync_api import expect

from game.engine import SLOTS
from game.engine.scheme import ARC_ROWS
from tests.support.table import RULE_BOOK_TOPS, card, open_deal, play_move, selected, tap

pytestmark = pytest.mark.e2e

SELECTED = re.compile(r"\bselected\b")


def test_the_table_shows_every_top_card_with_its_slot_and_count(page):
    open_deal(page)
    for slot, top in RULE_BOOK_TOPS.items():
        expect(card(page, slot)).to_have_attribute("data-card", top)
    for slot, name, count in (("P1", "1", "8"), ("P12", "12", "8"), ("R3", "R3", "1")):
        caption = page.locator(".slot").filter(has=card(page, slot))
        expect(caption.locator(".slot-name")).to_have_text(name)
        expect(caption.locator(".slot-count")).to_have_text(count)


def spread(values):
    values = list(values)
    return max(values) - min(values)


def test_the_piles_form_the_rule_books_arc(page):
    open_deal(page)
    boxes = {slot: card(page, slot).bounding_box() for slot in SLOTS}
    tops = []
    for row in ARC_ROWS:
        slots = [slot for slot in row if slot]
        assert spread(boxes[slot]["y"] for slot in slots) < 2, row
        lefts = [boxes[slot]["x"] for slot in slots]
        assert lefts == sorted(lefts), row
        tops.append(boxes[slots[0]]["y"])
    assert tops == sorted(tops)
    for column in (("P3", "P2", "P1"), ("P11", "P12")):
        assert spread(boxes[slot]["x"] for slot in column) < 2, column
    assert boxes["P3"]["x"] < boxes["P4"]["x"] and boxes["P10"]["x"] < boxes["P11"]["x"]


def test_a_first_tap_selects_a_card(page):
    open_deal(page)
    tap(page, "P1")
    expect(selected(page)).to_have_count(1)
    expect(card(page, "P1")).to_have_class(re.compile(r"\bselected\b"))


def test_tapping_the_selected_card_again_deselects_it(page):
    open_deal(page)
    tap(page, "P1", "P1")
    expect(selected(page)).to_have_count(0)


def test_a_pair_making_11_is_removed(page):
    open_deal(page)
    tap(page, "P1", "P8")  # 5♠ + 6♦
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#score")).to_have_text("10")
    expect(card(page, "P8")).to_have_attribute("data-card", "JC")
    expect(card(page, "P1")).to_have_attribute("data-card", "7H")
    expect(selected(page)).to_have_count(0)


def test_two_number_cards_not_making_11_clear_the_selection(page):
    open_deal(page)
    tap(page, "P1", "P2")  # 5♠ + A♥
    expect(selected(page)).to_have_count(0)
    expect(card(page, "P1")).to_have_attribute("data-card", "5S")
    expect(page.locator("#moves")).to_have_text("0")


def test_a_number_card_and_a_face_card_clear_the_selection(page):
    open_deal(page)
    tap(page, "P1", "P3")  # 5♠ + K♥
    expect(selected(page)).to_have_count(0)
    expect(page.locator("#moves")).to_have_text("0")


def test_two_kings_keep_the_second_selected(page):
    open_deal(page)
    tap(page, "P3", "P12")  # K♥ + K♥
    expect(selected(page)).to_have_count(1)
    expect(card(page, "P12")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#moves")).to_have_text("0")


def test_a_trio_goes_on_the_third_tap_and_is_never_completed_for_the_player(page):
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(json.loads(text))))
    open_deal(page)
    play_move(page, ["P1", "P8"], 1)  # reveals J♣ on pile 8
    tap(page, "P8", "P5")  # J♣, Q♥: waiting for a King
    expect(selected(page)).to_have_count(2)
    expect(page.locator("#moves")).to_have_text("1")
    tap(page, "P3")  # K♥
    expect(page.locator("#moves")).to_have_text("2")
    expect(page.locator("#score")).to_have_text("25")
    expect(selected(page)).to_have_count(0)
    # A trio completed for the player would have gone before the player's own, in order
    # on the one socket: the moves sent are the pair and the player's trio, no other.
    assert [frame["slots"] for frame in sent if frame["type"] == "move"] == [
        ["P1", "P8"],
        ["P8", "P5", "P3"],
    ]
