"""Watching a finished race again: step through it, share a moment, see everyone's progress."""

import asyncio
import concurrent.futures
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from game.engine import Deal, replay
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.testing.live import Browser, Player
from tests.support.table import RULE_BOOK_TOPS, card, screenshot, set_options

pytestmark = pytest.mark.e2e

PAUSE_S = 0.08
"""Between two moves of a scripted player: under the socket's frame budget."""


async def _race(url):
    site = SimpleNamespace(url=url, port=urlsplit(url).port)
    ada, bob = Browser(), Browser()
    ada.get(f"{url}/")
    room = ada.post(f"{url}/api/races/", {"deal": RULE_BOOK_DEAL, "name": "Ada"})["room"]
    bob.get(f"{url}/race/{room}/")
    ada_socket, bob_socket = Player(ada, site, room), Player(bob, site, room)
    ada_id = (await ada_socket.open())["you"]["player"]
    await bob_socket.open()
    await bob_socket.send("join", name="Bob")
    bob_id = (await bob_socket.expect("state"))["you"]["player"]
    await ada_socket.send("start")
    await ada_socket.expect("started", timeout=20)
    await bob_socket.expect("started", timeout=20)
    for socket, moves in ((bob_socket, RULE_BOOK_WIN[:6]), (ada_socket, RULE_BOOK_WIN)):
        for seq, move in enumerate(moves, start=1):
            await socket.send("move", seq=seq, slots=list(move))
            await socket.expect("moved", seq=seq)
            await asyncio.sleep(PAUSE_S)
        if socket is bob_socket:
            await bob_socket.send("resign")
    await ada_socket.expect("finished")
    await ada_socket.close()
    await bob_socket.close()
    return SimpleNamespace(room=room, ada=ada_id, bob=bob_id)


@pytest.fixture(scope="module")
def finished_race(server):
    """Bob plays six moves and gives up; Ada wins with the rule book's line (real sockets)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright owns this thread's loop
        return pool.submit(asyncio.run, _race(server.url)).result()


def open_replay(page, race, query=""):
    page.goto(f"/replay/{race.room}/{race.ada}/{query}")
    expect(page.locator('body[data-ready="replay"]')).to_be_attached()


def test_a_replay_steps_to_the_winning_520_and_back_to_the_deal(page, finished_race):
    open_replay(page, finished_race)
    expect(page.locator("#score")).to_have_text("0")
    expect(card(page, "P1")).to_have_attribute("data-card", RULE_BOOK_TOPS["P1"])
    for number in range(1, len(RULE_BOOK_WIN) + 1):
        page.keyboard.press("ArrowRight")
        expect(page.locator("body")).to_have_attribute("data-step", str(number))
    expect(page.locator("#score")).to_have_text("520")
    expect(page.locator("#moves")).to_have_text("48")
    expect(page.locator("#step-status")).to_have_text("won")
    expect(page.locator(".card:not(.empty)")).to_have_count(0)
    expect(page.locator("#step-forward")).to_be_disabled()
    expect(page).to_have_url(f"{page.url.split('?')[0]}?move=48")
    for number in range(len(RULE_BOOK_WIN) - 1, -1, -1):
        page.locator("#step-back").click()
        expect(page.locator("body")).to_have_attribute("data-step", str(number))
    expect(page.locator("#score")).to_have_text("0")
    for slot, top in RULE_BOOK_TOPS.items():
        expect(card(page, slot)).to_have_attribute("data-card", top)


def test_a_shared_moment_opens_at_its_move(page, finished_race):
    open_replay(page, finished_race, "?move=10")
    after_ten = replay(Deal.from_code(RULE_BOOK_DEAL), RULE_BOOK_WIN[:10])
    expect(page.locator("#moves")).to_have_text("10")
    expect(page.locator("#score")).to_have_text(str(after_ten.score))
    expect(page.locator("#scrubber")).to_have_value("10")
    expect(card(page, "P1")).to_have_attribute("data-card", after_ten.playable()["P1"])
    page.keyboard.press("Space")  # play…
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#moves")).not_to_have_text("10")
    page.keyboard.press("Space")  # …and pause
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "false")


def test_a_race_replay_shows_both_players_and_links_to_the_other(page, finished_race):
    open_replay(page, finished_race, "?move=3")
    panel = page.locator("#race-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".player")).to_have_count(2)
    expect(panel.locator(".race-line")).to_have_count(2)
    bob = panel.locator(".player").filter(has_text="Bob")
    bob.get_by_role("link", name="Watch this replay").click()
    expect(page).to_have_url(
        f"{page.url.split('/replay/')[0]}/replay/{finished_race.room}/{finished_race.bob}/"
    )
    expect(page.locator('body[data-ready="replay"]')).to_be_attached()
    expect(page.locator("#scrubber")).to_have_attribute("max", "7")  # deal, 6 moves, gave up


@pytest.mark.parametrize(("name", "width", "height"), [("desktop", 1280, 800), ("phone", 390, 844)])
def test_replay_screens(new_page, finished_race, artifacts, name, width, height):
    page = new_page(width=width, height=height)
    open_replay(page, finished_race, "?move=20")
    expect(page.locator("#moves")).to_have_text("20")
    screenshot(page, artifacts / f"replay-{name}.jpg")


def test_a_game_given_up_counts_its_moves_and_names_its_end_only_at_the_end(page, finished_race):
    """Bob's six moves, then he gave up: six moves (not seven steps), no "playing" on the
    way, and Play is not drawn as Step forward is."""
    page.goto(f"/replay/{finished_race.room}/{finished_race.bob}/")
    expect(page.locator('body[data-ready="replay"]')).to_be_attached()
    expect(page.locator("#step-label")).to_have_text("Move 0 of 6")
    expect(page.locator("#step-status")).to_have_text("")
    assert page.locator("#play").inner_text() != page.locator("#step-forward").inner_text()
    assert page.locator("#step-back").inner_text() != page.locator("#step-forward").inner_text()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-label")).to_have_text("Move 1 of 6")
    expect(page.locator("#step-status")).to_have_text("")
    page.goto(f"/replay/{finished_race.room}/{finished_race.bob}/?move=99")  # the last step
    expect(page.locator("#step-label")).to_have_text("Move 6 of 6")
    expect(page.locator("#step-status")).to_have_text("resigned")


def test_the_analysis_stands_beside_the_felt_and_the_scrubber_shows_the_score(
    new_page, finished_race, artifacts
):
    """With the analysis on, a desktop's cards keep their size (they shrank to 35 px under
    it), and the scrubber is no blank band over its score chart (the light theme's fields
    painted it white)."""
    page = new_page(width=1366, height=768)
    open_replay(page, finished_race, "?move=20")
    set_options(page, analysis=True)
    expect(page.locator("#analysis")).to_be_visible()
    narrowest = min(page.locator(".card").nth(i).bounding_box()["width"] for i in range(20))
    assert narrowest >= 50, f"cards {narrowest:.0f} px wide beside the analysis"
    painted = page.locator("#scrubber").evaluate("(el) => getComputedStyle(el).backgroundColor")
    assert painted == "rgba(0, 0, 0, 0)"
    expect(page.locator("#score-chart .score-line")).to_be_attached()
    screenshot(page, artifacts / "replay-analysis-1366x768.jpg")
