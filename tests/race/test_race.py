"""A race in two browsers (and a spectator): lobby, countdown, live progress, standings."""

import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from tests.support.table import give_up, open_deal, open_lobby, play_move, screenshot, stray_boxes

pytestmark = pytest.mark.e2e


def create_race(page, name, code):
    open_lobby(page)
    form = page.locator("#race-form")
    form.get_by_label("Your name").fill(name)
    form.get_by_label("Deal code", exact=True).first.check()
    form.locator('input[name="code"]').fill(code)
    form.get_by_role("button", name="Create a race").click()
    expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    expect(page.locator("#room")).to_be_visible()
    return page.url


def opponent(page, name):
    return page.locator(".player").filter(has_text=name)


def test_two_players_race_and_see_each_others_progress(new_page, artifacts):
    host = new_page(width=1920, height=1080)
    link = create_race(host, "Ada", RULE_BOOK_DEAL)
    expect(host.locator("#start")).to_be_visible()
    expect(host.locator("#room-link")).to_have_value(link)

    guest = new_page(locale="fr-FR")
    guest.goto(link)
    expect(guest.locator("#join")).to_be_visible()
    expect(guest.locator("#start")).to_be_hidden()
    guest.locator("#join-name").fill("Béa")
    guest.locator("#join button").click()
    expect(host.locator("#lobby-players li")).to_have_count(2)
    expect(guest.locator(".waiting-host")).to_be_visible()
    screenshot(host, artifacts / "race-room.jpg")

    host.locator("#start").click()
    for page in (host, guest):
        expect(page.locator("#countdown")).to_be_visible()
    expect(host.locator(".countdown-number")).to_have_text(re.compile(r"^[123]$"))
    for page in (host, guest):
        expect(page.locator('body[data-phase="running"]')).to_be_attached()
        expect(page.locator('.card[data-slot="P1"]')).to_have_attribute("data-card", "5S")

    spectator = new_page()
    spectator.goto(link)
    expect(spectator.locator("#table-status")).to_have_text("You are watching this race.")
    expect(spectator.locator(".player")).to_have_count(2)

    play_move(guest, ["P1", "P8"], 1)
    bea = opponent(host, "Béa")
    expect(bea.locator(".p-moves")).to_have_text("1")
    expect(bea.locator(".p-score")).to_have_text("10")
    expect(bea.locator(".p-left")).to_have_text("102")
    expect(bea.locator('[data-mini="P1"]')).to_have_attribute("data-count", "7")
    expect(opponent(spectator, "Béa").locator(".p-moves")).to_have_text("1")

    for number, move in enumerate(RULE_BOOK_WIN[:6], start=1):
        play_move(host, move, number)
    ada = opponent(guest, "Ada")
    expect(ada.locator(".p-moves")).to_have_text("6")
    removed = str(5 * 2 + 3)  # five pairs and a trio
    expect(ada.locator(".progress")).to_have_attribute("aria-valuenow", removed)
    screenshot(host, artifacts / "race-desktop.jpg")
    guest.set_viewport_size({"width": 360, "height": 780})
    screenshot(guest, artifacts / "race-phone.jpg")

    for number, move in enumerate(RULE_BOOK_WIN[6:], start=7):
        play_move(host, move, number)
    won = host.locator("#won")  # announced at once, the standings come when all are done
    expect(won).to_be_visible()
    expect(won.locator("#won-score")).to_have_text("520")
    expect(won.locator("#won-moves")).to_have_text("48")
    expect(ada.locator(".player-status")).to_have_text("gagné")
    give_up(guest)
    expect(won).to_be_hidden()

    for page in (host, guest):
        standings = page.locator("#standings")
        expect(standings).to_be_visible()
        expect(standings.locator("tbody tr")).to_have_count(2)
        expect(standings.locator("tbody tr").first).to_contain_text("Ada")
    expect(host.locator("#standings tbody tr").first).to_contain_text("520")
    expect(guest.locator("#standings tbody tr").nth(1)).to_contain_text("abandon")
    assert stray_boxes(guest, "#standings th", "dialog") == []  # every column on a phone
    screenshot(host, artifacts / "race-standings.jpg")

    host.locator("#rematch").click()
    for page in (host, guest):
        expect(page).not_to_have_url(link)
        expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))


def test_a_solo_game_has_no_race_panels(page):
    open_deal(page)
    expect(page.locator("#room")).to_be_hidden()
    expect(page.locator("#players-panel")).to_be_hidden()


def test_the_race_lobby_and_the_opponents_fit_a_phone(new_page):
    host = new_page()
    link = create_race(host, "Ada Lovelace-Byron King", RULE_BOOK_DEAL)
    visitor = new_page(locale="ca", width=360, height=780)  # not joined yet: no table
    visitor.goto(link)
    expect(visitor.locator("#join")).to_be_visible()
    room = visitor.locator("#room").bounding_box()
    infobar = visitor.locator(".infobar").bounding_box()
    felt = visitor.locator(".felt").bounding_box()
    assert room["y"] >= infobar["y"] + infobar["height"]  # covers no button
    assert felt["y"] <= room["y"] and room["y"] + room["height"] <= felt["y"] + felt["height"]
    expect(visitor.locator(".player")).to_have_count(1)
    assert stray_boxes(visitor, ".player-head > *, .player-stats, .miniature", ".player") == []
