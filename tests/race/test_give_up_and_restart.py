"""
"Give up" asks first, with the keyboard and a screen reader in mind (the question
takes the focus, Escape cancels and nothing is sent, the focus goes back); on the
daily deal it says this is the day's only ranked attempt. "Restart" deals a solo game
again from the start, as a new game, the old one kept among the player's games; a
race, the daily attempt and a ghost race have no such button. At a phone's size
(390×844) and a laptop's (1366×768), the buttons are big enough to tap.
"""

import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL
from tests.support.table import card, open_daily, open_deal, play_move, screenshot, stray_boxes

from .test_race import create_race

pytestmark = pytest.mark.e2e

SIZES = [("phone", 390, 844), ("desktop", 1366, 768)]
TAP_TARGET = 44
"""The smallest height (px) of a button a finger taps on a phone."""


@pytest.fixture(params=SIZES, ids=[size[0] for size in SIZES])
def sized(request, new_page):
    """(a fresh page at that size, its name)."""
    name, width, height = request.param
    return new_page(width=width, height=height), name


def sent_frames(page):
    """The frames this page sends on its race socket, as they go (a list that grows)."""
    frames = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: frames.append(frame)))
    return frames


def tall_enough(page, name, *selectors):
    if name != "phone":
        return
    for selector in selectors:
        height = page.locator(selector).bounding_box()["height"]
        assert height >= TAP_TARGET - 0.01, f"{selector} is {height:.1f}px tall"  # subpixel layout


def bounding(locator):
    return locator.bounding_box()


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill("half-moon-42!")
    page.get_by_label("Password confirmation").fill("half-moon-42!")
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator(".site-nav")).to_contain_text(username)


def test_giving_up_the_daily_asks_first_and_cancelling_changes_nothing(sized, artifacts):
    page, size = sized
    frames = sent_frames(page)
    sign_up(page, f"quitter-{size}")
    open_daily(page)
    play_move(page, ["P1", "P8"], 1)
    tall_enough(page, size, "#undo", "#resign", "#new-game")
    page.locator("#resign").click()
    question = page.get_by_role("alertdialog", name="Give up this game?")
    expect(question).to_be_visible()
    expect(question).to_contain_text("This is your only ranked attempt today")
    expect(question.get_by_role("button", name="Keep playing")).to_be_focused()
    tall_enough(page, size, "#give-up [data-close]", "#give-up [data-confirm]")
    screenshot(page, artifacts / f"give-up-daily-{size}.jpg")

    page.keyboard.press("Escape")
    expect(question).to_be_hidden()
    expect(page.locator("#resign")).to_be_focused()
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#game-over")).to_be_hidden()
    play_move(page, ["P8", "P5", "P3"], 2)  # the game goes on
    # A resign sent on cancelling would have gone before this move, on the same socket,
    # and the move's answer has come back: none was sent.
    assert not [f for f in frames if '"resign"' in f]

    page.locator("#resign").click()
    question.get_by_role("button", name="Give up").click()
    over = page.locator("#game-over")
    expect(over).to_be_visible()
    expect(page.locator("#table-status")).to_have_text("You gave up.")
    assert len([f for f in frames if '"resign"' in f]) == 1


def test_a_guests_daily_question_says_only_attempt_not_ranked(page):
    page.goto("/daily/")
    page.get_by_label("Your name on the leaderboard").fill("Ada")
    page.get_by_role("button", name="Play today's deal").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(page.locator("#restart")).to_have_count(0)
    page.locator("#resign").click()
    text = page.locator("#give-up-text")
    expect(text).to_have_text(re.compile(r"^This is your only attempt at today's deal"))
    page.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#give-up")).to_be_hidden()


def test_a_blocked_solo_games_give_up_asks_over_the_blocked_dialog(page, server):
    frames = sent_frames(page)
    open_deal(page, server.deals["blocking"])
    play_move(page, ["P2", "P1"], 1)  # the only pair: blocked
    blocked = page.locator("#blocked")
    blocked.get_by_role("button", name="Give up").click()
    question = page.locator("#give-up")
    expect(question).to_contain_text("Your game ends here")
    question.get_by_role("button", name="Keep playing").click()
    expect(question).to_be_hidden()
    expect(blocked).to_be_visible()  # as it was
    expect(page.locator("#blocked-give-up")).to_be_focused()
    assert not [f for f in frames if '"resign"' in f]
    blocked.get_by_role("button", name="Give up").click()
    question.get_by_role("button", name="Give up").click()
    expect(page.locator("#game-over")).to_be_visible()
    expect(blocked).to_be_hidden()


def test_restart_deals_the_same_deal_again_as_a_new_game(sized, artifacts):
    page, size = sized
    open_deal(page)
    room = page.locator("main.play").get_attribute("data-room")
    play_move(page, ["P1", "P8"], 1)
    play_move(page, ["P8", "P5", "P3"], 2)
    restart = page.locator("#restart")
    expect(restart).to_be_visible()
    tall_enough(page, size, "#undo", "#restart", "#new-game", ".settings-menu summary")
    screenshot(page, artifacts / f"restart-solo-{size}.jpg")

    restart.click()
    question = page.get_by_role("alertdialog", name="Restart this deal?")
    expect(question.get_by_role("button", name="Keep playing")).to_be_focused()
    page.keyboard.press("Escape")
    expect(question).to_be_hidden()
    expect(restart).to_be_focused()
    expect(page.locator("#moves")).to_have_text("2")

    restart.click()
    question.get_by_role("button", name="Restart").click()
    expect(page.locator("main.play")).not_to_have_attribute("data-room", room)
    expect(page).to_have_url(re.compile(rf"/play/{RULE_BOOK_DEAL}/$"))  # the code's address, kept
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#score")).to_have_text("0")
    expect(card(page, "P1")).to_have_attribute("data-card", "5S")
    expect(card(page, "P8")).to_have_attribute("data-card", "6D")
    # The same code (a past day's deal of another test's, it may read "· Practice · daily
    # deal of …" after it: /play/ labels a typed code that was a day's deal).
    expect(page.locator(".deal-code-value")).to_have_text(re.compile(rf"^{RULE_BOOK_DEAL}\b"))

    page.goto("/me/")  # the game before is among this guest's games
    expect(page.locator(".leaderboard.history tbody tr")).to_have_count(1)
    expect(page.locator(".leaderboard.history tbody tr")).to_contain_text("resigned")
    page.goto("/play/HM1-N-AAAAAAB/")  # the code opens the new game, still fresh
    expect(page.locator("main.play")).not_to_have_attribute("data-room", room)
    expect(page.locator("#moves")).to_have_text("0")


def test_a_blocked_game_restarts_from_its_dialog_without_a_second_question(page, server):
    open_deal(page, server.deals["blocking"])
    play_move(page, ["P2", "P1"], 1)
    room = page.locator("main.play").get_attribute("data-room")
    page.locator("#blocked").get_by_role("button", name="Restart this deal").click()
    expect(page.locator("main.play")).not_to_have_attribute("data-room", room)
    expect(page).to_have_url(re.compile(rf"/play/{server.deals['blocking']}/$"))
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#blocked")).to_be_hidden()
    expect(page.locator("#restart-dialog")).to_be_hidden()


def test_a_race_has_give_up_and_no_restart(page):
    create_race(page, "Ada", RULE_BOOK_DEAL)
    page.locator("#start").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(page.locator("#resign")).to_be_visible()
    expect(page.locator("[data-restart]")).to_have_count(0)
    page.locator("#resign").click()
    expect(page.locator("#give-up-text")).to_have_text(
        "Your game ends here; the race goes on without you."
    )


@pytest.mark.parametrize("locale", ["fr", "ca", "ro"])
def test_the_new_buttons_fit_a_phone_in_every_language(new_page, server, artifacts, locale):
    page = open_deal(new_page(locale=locale, width=390, height=844), server.deals["blocking"])
    tall_enough(page, "phone", "#undo", "#restart", "#new-game")
    assert stray_boxes(page, ".actions > *", ".infobar") == []
    lowest = max(box["y"] + box["height"] for box in map(bounding, page.locator(".slot").all()))
    assert lowest <= 844, f"the table reaches {lowest:.0f}px"
    screenshot(page, artifacts / f"restart-solo-phone-{locale}.jpg")
    play_move(page, ["P2", "P1"], 1)
    blocked = page.locator("#blocked")
    expect(blocked.locator("[data-restart]")).to_be_visible()
    assert stray_boxes(page, "#blocked .dialog-actions > *", "dialog") == []
    tall_enough(page, "phone", "#blocked [data-restart]", "#blocked-give-up")
    screenshot(page, artifacts / f"blocked-solo-phone-{locale}.jpg")
    page.locator("#blocked-give-up").click()
    expect(page.locator("#give-up")).to_be_visible()
    assert stray_boxes(page, "#give-up .dialog-actions > *", "#give-up") == []
    screenshot(page, artifacts / f"give-up-solo-phone-{locale}.jpg")
