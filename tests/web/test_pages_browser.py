"""The other pages: the lobby and its forms, the language switch, the daily leaderboard, 404."""

import re
from itertools import combinations

import pytest
from playwright.sync_api import expect

from game.engine.rules import FITS, judge
from tests.support.table import give_up, open_deal, open_lobby, screenshot, stray_boxes

pytestmark = pytest.mark.e2e


def test_the_lobby_opens_a_solo_game_and_catches_bad_codes(page, artifacts):
    open_lobby(page)
    screenshot(page, artifacts / "lobby.jpg")
    solo = page.locator("#solo-form")
    solo.get_by_label("Deal code").fill("not a code")
    solo.get_by_role("button", name="Play").click()
    expect(solo.locator(".field-error")).to_be_visible()
    join = page.locator("#join-form")
    join.get_by_label("Race link or room code").fill("??")
    join.get_by_role("button", name="Join").click()
    expect(join.locator(".field-error")).to_be_visible()
    race = page.locator("#race-form")
    race.locator('input[name="code"]').fill("HM1-C-ZZZZZZZ")
    race.get_by_role("button", name="Create a race").click()
    expect(race.locator('[data-error="server"]')).to_have_text(
        "No custom deal has this code. Check it, or choose a random deal."
    )
    solo.get_by_label("Deal code").fill("HM1-N-AAAAAAB")
    solo.get_by_role("button", name="Play").click()
    expect(page).to_have_url(re.compile(r"/play/HM1-N-AAAAAAB/$"))


def test_the_language_switch_translates_the_page_and_the_card_letters(page):
    page.goto("/play/HM1-N-AAAAAAB/")
    page.locator("#language-select").select_option("ca")
    expect(page.locator("html")).to_have_attribute("lang", "ca")
    languages = page.locator("#language-select option")  # each in its own language
    expect(languages).to_have_text(["English", "Français", "Català", "Română"])
    expect(page.get_by_role("button", name="Partida nova")).to_be_visible()
    expect(page.locator('.card[data-slot="P3"] .rank').first).to_have_text("R")  # K♥ is R♥
    king = page.locator('.card[data-slot="P3"]')
    expect(king).to_have_attribute("aria-label", "Pila 3, R♥, 8 cartes")
    page.locator("#language-select").select_option("en")
    expect(page.locator('.card[data-slot="P3"] .rank').first).to_have_text("K")


def test_a_deal_code_that_does_not_work_is_explained_in_french(new_page):
    page = open_deal(new_page(locale="fr"))
    page.locator("#new-game").click()
    dialog = page.locator("#new-game-form")
    dialog.get_by_label("Code de la donne").fill("HM1-C-ZZZZZZZ")
    dialog.get_by_role("button", name="Jouer", exact=True).click()
    expect(page).to_have_url(re.compile(r"/play/HM1-C-ZZZZZZZ/$"))
    expect(page.locator('body[data-ready="lobby"]')).to_be_attached()
    expect(page.get_by_role("alert")).to_contain_text(
        "Aucune donne personnalisée n’a le code HM1-C-ZZZZZZZ."
    )
    race = page.locator("#race-form")  # the same code through the API: the client's text
    race.locator('input[name="code"]').fill("HM1-C-ZZZZZZZ")
    race.get_by_role("button", name="Créer une course").click()
    expect(race.locator('[data-error="server"]')).to_have_text(
        "Aucune donne personnalisée n’a ce code. Vérifiez-le ou choisissez une donne au hasard."
    )


def test_the_daily_leaderboard_shows_a_finished_game_in_its_chart(page, artifacts):
    page.goto("/daily/")
    page.get_by_label("Your name on the leaderboard").fill("Ada")  # a guest picks a name first
    page.get_by_role("button", name="Play today's deal").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(page.locator('.card[data-slot="P1"]')).not_to_have_attribute("data-card", "")
    tops = {
        card.get_attribute("data-slot"): card.get_attribute("data-card")
        for card in page.locator(".card").all()
    }
    pair = next(p for p in combinations(tops, 2) if judge([tops[s] for s in p]) == FITS)
    for slot in pair:
        page.locator(f'.card[data-slot="{slot}"]').click()
    expect(page.locator("#moves")).to_have_text("1")
    give_up(page)
    expect(page.locator("#resign")).to_be_hidden()
    page.goto("/")
    page.get_by_role("link", name="Leaderboard").click()
    mine = page.locator(".leaderboard tbody tr.you")  # the guests' board: other tests' guests too
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Ada")
    expect(mine).to_contain_text("resigned")
    rows = page.locator(".leaderboard tbody tr").count()
    expect(page.locator("svg.chart .bar-score")).to_have_count(rows)
    screenshot(page, artifacts / "leaderboard.jpg")
    page.set_viewport_size({"width": 360, "height": 780})
    page.locator(".menu-button").click()  # a phone's header: the menu holds the language
    page.locator("#language-select").select_option("ro")  # the longest column titles
    expect(page.locator(".leaderboard th").nth(1)).to_have_text("Jucător")
    screenshot(page, artifacts / "leaderboard-phone.jpg")


def test_an_unknown_page_gets_the_friendly_404(page, artifacts):
    response = page.goto("/daily/1999-01-01/")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("This page is not on the table")
    expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    screenshot(page, artifacts / "not-found.jpg")


def test_long_translations_stay_inside_their_panels_on_a_phone(new_page):
    page = open_lobby(new_page(locale="fr", width=360, height=780))  # « Rejoindre »
    assert stray_boxes(page, ".panel .field-row > *", ".panel") == []
    page = open_deal(new_page(locale="ro", width=360, height=780))  # « Jucați »
    page.locator("#new-game").click()
    expect(page.locator("#new-game-dialog")).to_be_visible()
    assert stray_boxes(page, "#new-game-dialog .field-row > *", "dialog") == []
