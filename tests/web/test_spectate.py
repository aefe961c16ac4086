"""A spectator's felt: the leader's board in the rule book's arc, real cards on a typed
code, face down on a hidden deal, another player at a tap or a key; and no frame the
spectator's socket receives holds a card."""

import json
import re

import pytest
from playwright.sync_api import expect

from game.engine import Deal
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.testing import live
from tests.race.test_race import create_race
from tests.support.table import RULE_BOOK_TOPS, card, play_move, screenshot

pytestmark = pytest.mark.e2e

DEALT = Deal.from_code(RULE_BOOK_DEAL)
CARD_NAME = re.compile(r'"(?:10|[2-9AJQK])[SHDC]"')
"""A card as the server names it, quoted: what a spectator's frames must never hold."""


def race_of_two(new_page, host_name, guest_name, hidden=False, server=None):
    """A running race on the rule book's deal (its code hidden, as a random deal's is,
    with `hidden`): the host's and the guest's pages, and the race's link."""
    host = new_page()
    link = create_race(host, host_name, RULE_BOOK_DEAL)
    if hidden:
        room = link.rstrip("/").rsplit("/", 1)[-1]
        hide = f"from game.models import Race; Race.objects.filter(room='{room}')"
        hide += ".update(deal_hidden=True)"
        live.manage(server.env, "shell", "-c", hide)
    guest = new_page()
    guest.goto(link)
    guest.locator("#join-name").fill(guest_name)
    guest.locator("#join button").click()
    expect(host.locator("#lobby-players li")).to_have_count(2)
    host.locator("#start").click()
    for page in (host, guest):
        expect(page.locator('body[data-phase="running"]')).to_be_attached()
    return host, guest, link


def watch(new_page, link, **size):
    """A spectator's page on the race, recording every frame its socket receives."""
    page = new_page(**size)
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    page.goto(link)
    expect(page.locator('body[data-role="spectator"]')).to_be_attached()
    return page, frames


def no_card_in(frames):
    """Every frame parsed: no board, no card removed or revealed, no card's name."""
    assert any('"state"' in text for text in frames)
    for text in frames:
        frame = json.loads(text)
        assert frame.get("board") is None, frame
        assert not {"removed", "revealed"} & frame.keys(), frame
        assert not CARD_NAME.search(text), text


SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]


def test_a_spectator_sees_the_leaders_cards_on_a_typed_code_and_switches_player(
    new_page, artifacts
):
    host, guest, link = race_of_two(new_page, "Ada", "Bob")
    play_move(guest, ["P1", "P8"], 1)  # Bob leads
    spectator, frames = watch(new_page, link)
    expect(spectator.locator("[data-watching]")).to_have_text("Watching Bob")
    expect(card(spectator, "P1")).to_have_attribute("data-card", DEALT.piles[0][-2])
    expect(card(spectator, "P8")).to_have_attribute("data-card", DEALT.piles[7][-2])
    expect(card(spectator, "R1")).to_have_attribute("data-card", RULE_BOOK_TOPS["R1"])
    expect(spectator.locator('.slot:has([data-slot="P1"]) .slot-count')).to_have_text("7")
    expect(spectator.locator("#moves")).to_have_text("1")

    spectator.keyboard.press("]")  # the next player: Ada, who has not moved
    expect(spectator.locator("[data-watching]")).to_have_text("Watching Ada")
    expect(card(spectator, "P1")).to_have_attribute("data-card", RULE_BOOK_TOPS["P1"])
    expect(spectator.locator("#moves")).to_have_text("0")
    play_move(host, RULE_BOOK_WIN[0], 1)  # Ada's first move shows as she plays it
    expect(card(spectator, "P1")).to_have_attribute("data-card", DEALT.piles[0][-2])

    spectator.locator(".player").filter(has_text="Bob").click()  # a tap on Bob's card
    expect(spectator.locator("[data-watching]")).to_have_text("Watching Bob")
    expect(spectator.locator(".player.watched")).to_contain_text("Bob")
    no_card_in(frames)
    for width, height in SIZES:
        spectator.set_viewport_size({"width": width, "height": height})
        cards = spectator.locator(".card")
        narrowest = min(cards.nth(i).bounding_box()["width"] for i in range(20))
        assert narrowest >= 40, f"{width}x{height}: cards {narrowest:.0f} px wide"
        screenshot(spectator, artifacts / f"spectator-{width}x{height}.jpg")


def test_a_hidden_deal_shows_each_slots_cards_face_down_and_no_frame_holds_a_card(new_page, server):
    host, guest, link = race_of_two(new_page, "Cy", "Dee", hidden=True, server=server)
    spectator, frames = watch(new_page, link, width=390, height=844)
    expect(spectator.locator("[data-watching]")).to_contain_text("Watching")
    play_move(guest, ["P1", "P8"], 1)
    expect(spectator.locator("[data-watching]")).to_have_text("Watching Dee")
    expect(spectator.locator('.slot:has([data-slot="P1"]) .slot-count')).to_have_text("7")
    expect(spectator.locator(".card.back")).to_have_count(20)
    expect(spectator.locator('.card[data-card=""]')).to_have_count(20)
    no_card_in(frames)
