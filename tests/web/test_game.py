"""A whole game: undo, the blocked announcement, a 48-move win, keyboard play, new games."""

import json
import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from tests.support.table import card, give_up, open_deal, play_move, screenshot, selected, tap

pytestmark = pytest.mark.e2e


def test_undo_puts_the_cards_back(page):
    open_deal(page)
    expect(page.locator("#undo")).to_be_disabled()
    play_move(page, ["P1", "P8"], 1)
    page.locator("#undo").click()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#score")).to_have_text("0")
    expect(card(page, "P1")).to_have_attribute("data-card", "5S")
    expect(card(page, "P8")).to_have_attribute("data-card", "6D")
    expect(page.locator("#undo")).to_be_disabled()


def test_a_blocked_game_is_announced_with_undo_and_new_game(page, server):
    open_deal(page, server.deals["blocking"])
    play_move(page, ["P2", "P1"], 1)  # 5♠ + 6♠, the only pair
    dialog = page.locator("#blocked")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="New game")).to_be_visible()
    dialog.get_by_role("button", name="Undo").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#moves")).to_have_text("0")
    expect(card(page, "P2")).to_have_attribute("data-card", "5S")


def test_giving_up_a_blocked_game_says_it_is_over_and_nothing_of_whether_it_could_be_won(
    page, server
):
    open_deal(page, server.deals["blocking"])
    play_move(page, ["P2", "P1"], 1)
    give_up(page, "#blocked-give-up")
    over = page.locator("#game-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text("Your game is over.")
    expect(over).not_to_contain_text(re.compile("winnable|could be won", re.IGNORECASE))


def test_the_rule_books_winning_line_wins_with_520_in_48_moves(new_page, artifacts):
    page = open_deal(new_page(reduced_motion="no-preference"), RULE_BOOK_DEAL)  # cards move
    for number, move in enumerate(RULE_BOOK_WIN, start=1):
        play_move(page, move, number)
    dialog = page.locator("#won")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#won-score")).to_have_text("520")
    expect(dialog.locator("#won-moves")).to_have_text("48")
    expect(dialog.locator("#won-time")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator("body[data-celebrated]")).to_be_attached()  # cards bouncing, a few seconds
    expect(page.locator(".card:not(.empty)")).to_have_count(0)
    screenshot(page, artifacts / "won.jpg")


def test_keyboard_play_arrows_enter_space_and_u(page):
    open_deal(page)
    card(page, "P1").focus()
    page.keyboard.press("Enter")  # 5♠ selected
    expect(card(page, "P1")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowUp")
    expect(card(page, "P2")).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(card(page, "P4")).to_be_focused()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(card(page, "P8")).to_be_focused()
    page.keyboard.press("Space")  # 6♦: the pair goes
    expect(page.locator("#moves")).to_have_text("1")
    page.keyboard.press("ArrowDown")
    expect(page.locator(".card:focus")).to_have_attribute("data-slot", re.compile(r"^R"))
    page.keyboard.press("u")
    expect(page.locator("#moves")).to_have_text("0")
    expect(card(page, "P8")).to_have_attribute("data-card", "6D")


def test_escape_clears_the_selection(page):
    open_deal(page)
    tap(page, "P5", "P3")
    expect(selected(page)).to_have_count(2)
    page.keyboard.press("Escape")
    expect(selected(page)).to_have_count(0)


def test_a_new_game_by_code_and_a_clear_error_for_a_bad_code(page):
    open_deal(page)
    page.locator("#new-game").click()
    form = page.locator("#new-game-form")
    form.get_by_label("Deal code").fill("HM1-N-123")
    form.get_by_role("button", name="Play").click()
    expect(form.locator(".field-error")).to_be_visible()
    form.get_by_label("Deal code").fill("hm1-n-aaaaaac")
    form.get_by_role("button", name="Play").click()
    expect(page).to_have_url(re.compile(r"/play/HM1-N-AAAAAAC/$"))
    expect(page.locator(".deal-code-value")).to_have_text("HM1-N-AAAAAAC")


def test_a_random_new_game_deals_a_numbered_deal(page):
    open_deal(page)
    page.locator("#new-game").click()
    page.locator("#new-game-form").get_by_role("button", name="Random deal").click()
    expect(page).to_have_url(re.compile(r"/play/HM1-N-[A-Z]{7}/$"))
    expect(page.locator('body[data-phase="running"]')).to_be_attached()


def test_a_bad_code_in_the_url_gets_a_clear_error_page(page):
    response = page.goto("/play/HM1-X-NOPE/")
    assert response.status == 400
    expect(page.get_by_role("alert")).to_contain_text("This deal code does not work.")
    response = page.goto("/play/HM1-C-ZZZZZZZ/")
    assert response.status == 404
    expect(page.get_by_role("alert")).to_be_visible()
    response = page.goto("/race/NOROOM/")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("This page is not on the table")


def test_the_deal_code_copies_a_share_link(page):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_deal(page)
    page.locator("#deal-code").click()
    expect(page.locator("#message")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()").endswith("/play/HM1-N-AAAAAAB/")


def test_a_dropped_connection_reconnects_and_restores_the_board(page):
    sockets = []

    def relay(ws):
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/race/"), relay)
    open_deal(page)
    play_move(page, ["P1", "P8"], 1)
    before = card(page, "R5").bounding_box()
    sockets[-1].close()
    expect(page.locator("#connection")).to_be_visible()
    assert card(page, "R5").bounding_box() == before  # the banner lies over the page
    expect(page.locator("#connection")).to_be_hidden()
    assert len(sockets) == 2
    expect(page.locator("#moves")).to_have_text("1")
    expect(card(page, "P8")).to_have_attribute("data-card", "JC")
    play_move(page, ["P8", "P5", "P3"], 2)


def test_a_state_between_two_taps_keeps_the_first_tap(page):
    """A `state` that changes no selected card (a resync's, a reconnect's: on a slow line it
    can come at any moment) keeps the selection, so the pair's second tap still makes it."""
    relays, states = [], []

    def relay(ws):
        server = ws.connect_to_server()

        def from_server(message):
            if json.loads(message)["type"] == "state":
                states.append(message)
            ws.send(message)

        server.on_message(from_server)
        ws.on_message(server.send)
        relays.append(ws)

    page.route_web_socket(re.compile(r"/ws/race/"), relay)
    open_deal(page)
    tap(page, "P1")
    relays[-1].send(states[-1])  # the same board again
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    tap(page, "P8")
    expect(page.locator("#moves")).to_have_text("1")
    expect(card(page, "P8")).to_have_attribute("data-card", "JC")


def test_a_network_drop_is_noticed_and_the_game_goes_on_after_it(page):
    open_deal(page)
    page.context.set_offline(True)  # the socket stays open but nothing gets through
    tap(page, "P1", "P8")
    expect(page.locator("#connection")).to_be_visible(timeout=20_000)  # 5 s of silence
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_be_hidden(timeout=20_000)
    expect(page.locator("#moves")).to_have_text("1")
    expect(card(page, "P8")).to_have_attribute("data-card", "JC")
    play_move(page, ["P8", "P5", "P3"], 2)


def test_the_whole_table_fits_a_laptop_screen(new_page):
    page = open_deal(new_page(width=1280, height=720))
    lowest = max(
        box["y"] + box["height"]
        for box in (page.locator(".slot").nth(i).bounding_box() for i in range(20))
    )
    assert lowest <= 720
