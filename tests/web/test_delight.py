"""
What is beyond the rule book's minimum: the app installs (manifest, icons, a service
worker) and a numbered deal plays offline as a practice game dealt like the server's;
sounds are off until turned on; a light theme and its switch; a won game celebrates,
unless the player asked for reduced motion.
"""

import contextlib
import io
import re

import pytest
from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from game.engine import Deal
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from tests.race.test_give_up_and_restart import sign_up
from tests.support.e2e import WAIT_MS
from tests.support.table import RULE_BOOK_TOPS, card, open_deal, play_move, set_options, tap

pytestmark = pytest.mark.e2e

SLOTS = [f"P{n}" for n in range(1, 13)] + [f"R{n}" for n in range(1, 9)]
CONTROLLED = "() => Boolean(navigator.serviceWorker.controller)"
ACTIVATED = """async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration?.active?.state === "activated";
}"""


def context_for(chromium, server, **options):
    context = chromium.new_context(
        base_url=server.url, viewport={"width": 1280, "height": 800}, **options
    )
    context.set_default_timeout(WAIT_MS)
    return context


def install(page):
    """Opens the lobby and waits until its service worker (precache done) controls it.
    The worker claims the pages open when it activates, but Chromium passes over a page
    still loading then (one that a sign-up's page registered the worker before): such a
    page stays outside it until the next one, as a player's would, so the lobby is
    opened again."""
    page.goto("/")
    page.wait_for_function(ACTIVATED)  # activated: its claim of the open pages is done
    for _ in range(LOBBY_OPENINGS):
        if page.evaluate(CONTROLLED):
            return
        page.goto("/")
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function(CONTROLLED, timeout=WAIT_MS / LOBBY_OPENINGS)
    assert page.evaluate(CONTROLLED), (
        f"the lobby opened {LOBBY_OPENINGS} times, never under its worker"
    )


LOBBY_OPENINGS = 3
"""How often `install` opens the lobby again for its worker to control it: once was
enough but for one run of the suite in several, where the page opened again after the
worker's activation still stayed outside it for 20 s (Chromium, on a loaded machine)."""


def tops(page):
    return {slot: card(page, slot).get_attribute("data-card") for slot in SLOTS}


def engine_tops(code):
    deal = Deal.from_code(code)
    return dict(zip(SLOTS, [pile[-1] for pile in deal.piles] + list(deal.reserve), strict=True))


def test_the_manifest_names_the_app_and_its_icons(page):
    page.goto("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(href)
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    purposes = set()
    for icon in manifest["icons"]:
        image = page.request.get(icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png", icon["src"]
        size = Image.open(io.BytesIO(image.body())).size
        assert f"{size[0]}x{size[1]}" == icon["sizes"], icon["src"]
        purposes.add((icon["sizes"], icon["purpose"]))
    assert purposes >= {
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    }


def test_the_worker_precaches_the_static_files_by_their_storage_names(page):
    page.goto("/")
    worker = page.request.get("/sw.js")
    assert worker.ok and "javascript" in worker.headers["content-type"]
    assert worker.headers["cache-control"] == "no-cache"
    css = page.locator("link[rel=stylesheet]").get_attribute("href")
    assert f'"{css}"' in worker.text()  # the page's own name for it, hashed or not


def test_offline_a_numbered_deal_plays_as_the_server_deals_it(chromium, server):
    context = context_for(chromium, server)
    page = context.new_page()
    install(page)
    context.set_offline(True)
    try:
        for code in (RULE_BOOK_DEAL, "HM1-N-QWERTYZ"):
            page.goto(f"/play/{code}/")
            expect(page.locator("body[data-offline]")).to_be_attached()
            expect(page.locator(".unranked-note")).to_contain_text("offline")
            expect(page.locator(".deal-code-value")).to_have_text(code)
            expect(card(page, "P1")).not_to_have_attribute("data-card", "")
            assert tops(page) == engine_tops(code)
        page.goto(f"/play/{RULE_BOOK_DEAL.lower()}/")
        assert tops(page) == RULE_BOOK_TOPS
        play_move(page, ["P1", "P8"], 1)  # 5♠ and 6♦
        expect(page.locator("#score")).to_have_text("10")
        expect(card(page, "P1")).to_have_attribute("data-card", "7H")
        page.locator("#undo").click()
        expect(page.locator("#moves")).to_have_text("0")
        expect(card(page, "P1")).to_have_attribute("data-card", "5S")
        page.goto("/play/HM1-C-AAAAAAB/")
        expect(page.locator("#table-status")).to_contain_text("custom deal needs the server")
    finally:
        context.close()


def test_offline_a_won_practice_game_is_not_celebrated_under_reduced_motion(chromium, server):
    context = context_for(chromium, server, reduced_motion="reduce")
    page = context.new_page()
    install(page)
    context.set_offline(True)
    try:
        page.goto(f"/play/{RULE_BOOK_DEAL}/")
        expect(page.locator("body[data-offline]")).to_be_attached()
        for number, move in enumerate(RULE_BOOK_WIN, start=1):
            play_move(page, move, number)
        expect(page.locator("#won")).to_be_visible()
        expect(page.locator("#won-score")).to_have_text("520")
        expect(page.locator(".celebration")).to_have_count(0)
        expect(page.locator("body[data-celebrated]")).to_have_count(0)
    finally:
        context.close()


COUNT_SOUNDS = """() => {
    window.soundsStarted = 0;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
        createOscillator() {
            const oscillator = super.createOscillator();
            const start = oscillator.start.bind(oscillator);
            oscillator.start = (...args) => { window.soundsStarted += 1; return start(...args); };
            return oscillator;
        }
    };
}"""


def test_sounds_are_off_until_turned_on_and_remembered(page):
    page.add_init_script(f"({COUNT_SOUNDS})()")
    open_deal(page)
    expect(page.locator('#settings input[name="sounds"]')).not_to_be_checked()
    tap(page, "P1")
    tap(page, "P2")  # 5♠ then A♥: refused
    assert page.evaluate("window.soundsStarted") == 0
    set_options(page, sounds=True)
    tap(page, "P1")
    page.wait_for_function("window.soundsStarted > 0")
    page.reload()
    expect(page.locator('#settings input[name="sounds"]')).to_be_checked()


BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def choose_theme(page, choice):
    for _ in range(3):
        if page.locator("html").get_attribute("data-theme-choice") == choice:
            return
        page.locator("#theme-switch").click()
    raise AssertionError(f"the switch never offered {choice}")


def test_the_theme_switch_changes_the_colours_and_is_remembered(page):
    page.goto("/")
    choose_theme(page, "dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("#theme-switch")).to_have_attribute("aria-label", re.compile("dark"))
    dark = page.evaluate(BACKGROUND)
    choose_theme(page, "light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    light = page.evaluate(BACKGROUND)
    assert light != dark
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme-choice", "light")
    assert page.evaluate(BACKGROUND) == light
    open_deal(page)  # every page: the table too
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    choose_theme(page, "dark")
    assert page.evaluate(BACKGROUND) == dark


def test_auto_follows_the_systems_light_scheme(chromium, server):
    context = context_for(chromium, server, color_scheme="light")
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        expect(page.locator("html")).to_have_attribute("data-theme-choice", "auto")
        page.emulate_media(color_scheme="dark")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    finally:
        context.close()


def test_offline_the_next_person_on_the_browser_sees_no_name_of_the_last(chromium, server):
    """A worker installed while someone was logged in keeps the offline table; after
    their log-out, the next person offline on that browser must not read their name."""
    signing = context_for(chromium, server, service_workers="block")
    sign_up(signing.new_page(), "WrenOffline")
    logged_in = signing.storage_state()
    signing.close()
    context = context_for(chromium, server, storage_state=logged_in)
    page = context.new_page()
    try:
        install(page)  # it precaches the offline table with the account's cookies
        expect(page.locator(".site-nav")).to_contain_text("WrenOffline")
        page.get_by_role("button", name="Log out").click()
        expect(page.locator(".site-nav")).not_to_contain_text("WrenOffline")
        context.set_offline(True)
        page.goto("/play/HM1-N-AAAAAAB/")
        expect(page.locator("body[data-offline]")).to_be_attached()
        assert "WrenOffline" not in page.content()
    finally:
        context.close()
