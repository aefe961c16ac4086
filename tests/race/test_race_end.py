"""Every finish shown: the clock stops, the felt says so, everyone gets a way on."""

import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL
from tests.support.table import give_up, screenshot

from .test_race import create_race

pytestmark = pytest.mark.e2e

STILL = 2500
"""How far a stopped clock's page is moved on (ms): more than a second of its ticks."""


def clocked_page(new_page, **options):
    """A page whose timers and Date the test can move on at once (`page.clock`); time
    flows as usual until it does."""
    page = new_page(**options)
    page.clock.install()
    return page


def start_race(new_page, names, spectators=0, spectator_locale="en-US"):
    """A race of `names` (the first one hosts), started, and pages watching it."""
    host = clocked_page(new_page)
    link = create_race(host, names[0], RULE_BOOK_DEAL)
    guests = []
    for name in names[1:]:
        guest = clocked_page(new_page)
        guest.goto(link)
        guest.locator("#join-name").fill(name)
        guest.locator("#join button").click()
        guests.append(guest)
    expect(host.locator("#lobby-players li")).to_have_count(len(names))
    host.locator("#start").click()
    players = [host, *guests]
    for page in players:
        expect(page.locator('body[data-phase="running"]')).to_be_attached()
    watchers = []
    for _ in range(spectators):
        watcher = clocked_page(new_page, locale=spectator_locale)
        watcher.goto(link)
        expect(watcher.locator('body[data-phase="running"]')).to_be_attached()
        watchers.append(watcher)
    return players, watchers


def expect_clock_running(page):
    shown = page.locator("#time").text_content()
    expect(page.locator("#time")).not_to_have_text(shown)


def expect_clock_stopped(page):
    """The page's time moved on by STILL at once, every tick due meanwhile fired: a
    clock still running would show a later time."""
    shown = page.locator("#time").text_content()
    page.clock.run_for(STILL)
    expect(page.locator("#time")).to_have_text(shown)


def test_a_spectator_sees_the_clock_stop_when_the_player_gives_up(new_page, artifacts):
    (ada,), (watcher,) = start_race(new_page, ["Ada"], spectators=1, spectator_locale="fr-FR")
    expect_clock_running(watcher)
    give_up(ada)
    for page in (ada, watcher):
        expect(page.locator("#standings")).to_be_visible()
        page.locator("#standings [data-close]").click()
        expect_clock_stopped(page)
    expect(ada.locator("#table-status")).to_have_text("You gave up. The race is over.")
    expect(watcher.locator("#table-status")).to_have_text("La course est terminée.")
    expect(ada.locator("#table.idle")).to_be_attached()  # no card looks tappable
    screenshot(ada, artifacts / "race-over-felt.jpg")
    ada.locator("#show-standings").click()
    expect(ada.locator("#standings")).to_be_visible()


def test_a_spectator_has_no_undo_or_settings_and_reads_the_watched_players_score(new_page):
    _, (watcher,) = start_race(new_page, ["Ada"], spectators=1)
    for hidden in ("#undo", ".settings-menu"):
        expect(watcher.locator(hidden)).to_be_hidden()
    expect(watcher.locator("[data-watching]")).to_have_text("Watching Ada")  # spectate.js
    expect(watcher.locator("#score")).to_have_text("0")  # Ada's, not a game of one's own
    expect(watcher.locator("#moves")).to_have_text("0")
    expect(watcher.locator("#players-title")).to_have_text("Players", use_inner_text=True)
    expect(watcher.locator("#table-status")).to_have_text("You are watching this race.")


def test_leaving_a_running_race_asks_first_and_gives_the_game_up(new_page, artifacts):
    (ada, bea), (watcher,) = start_race(new_page, ["Ada", "Bea"], spectators=1)
    bea.locator("#new-game").click()
    leave = bea.locator("#leave")
    expect(leave).to_be_visible()
    leave.get_by_role("button", name="Keep racing").click()
    expect(bea.locator("#resign")).to_be_visible()  # still racing
    bea.locator("#new-game").click()
    leave.get_by_role("button", name="Give up and leave").click()
    expect(bea.locator("#new-game-dialog")).to_be_visible()
    expect(ada.locator(".player").filter(has_text="Bea").locator(".player-status")).to_have_text(
        "resigned"
    )
    bea.locator("#new-game-dialog").get_by_role("button", name="Cancel").click()
    expect(bea.locator("#table-status")).to_have_text("You gave up.")
    expect_clock_stopped(bea)  # while Ada's race goes on
    expect_clock_running(ada)
    expect(watcher.locator(".player").filter(has_text="Bea")).to_contain_text("resigned")
    screenshot(watcher, artifacts / "race-spectator.jpg")


def test_a_guest_and_a_spectator_get_a_way_on_from_the_standings(new_page):
    (ada, bea), (watcher,) = start_race(new_page, ["Ada", "Bea"], spectators=1)
    give_up(bea)
    give_up(ada)
    for page in (bea, watcher):
        standings = page.locator("#standings")
        expect(standings).to_be_visible()
        expect(standings.get_by_role("button", name="New race")).to_be_visible()
        expect(standings.get_by_role("link", name="Back to the lobby")).to_be_visible()
        expect(
            standings.get_by_role("button", name="Rematch")
        ).to_be_hidden()  # Ada hosts, still here
    expect(ada.locator("#standings").get_by_role("button", name="Rematch")).to_be_visible()
    watcher.locator("#standings").get_by_role("button", name="New race").click()
    expect(watcher).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    expect(watcher.locator("#room")).to_be_visible()  # a new race, in its lobby
