"""
The rule book's arc on every screen, measured from the cards' boxes: « les piles
dessinent un arc ouvert vers le bas : 3 piles à gauche, 7 en haut, 2 à droite sous le
coin. La réserve occupe le centre de l'arc, en deux rangées de quatre. » At a phone
held either way, a tablet and two laptops, alone and in a race beside an opponent's
panel, in each of the site's four languages (whose longer words once wrapped the
header and the buttons and took the felt's height): that shape, cards a finger can
tap, apart, and a page that does not scroll.
"""

import itertools

import pytest
from playwright.sync_api import expect

from tests.race.test_race import create_race
from tests.support.table import (
    SETTLED,
    each_size,
    open_deal,
    size_label,
    sizes_from,
    turn_to,
    window_shot,
)

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1280, 800), (1366, 768)]
LANGUAGES = ["en", "fr", "ca", "ro"]
GAP = 6
"""The least room between two cards, in CSS px."""
TOUCH = 44
"""The least short side of a card: a finger's tap target."""

LEFT, TOP, RIGHT = ["P3", "P2", "P1"], [f"P{n}" for n in range(4, 11)], ["P11", "P12"]
RESERVE_ROWS = [["R1", "R2", "R3", "R4"], ["R5", "R6", "R7", "R8"]]

MEASURE = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return {x: r.x, y: r.y, w: r.width, h: r.height};
    };
    const cards = {}, captions = {};
    for (const card of document.querySelectorAll(".card[data-slot]")) {
        cards[card.dataset.slot] = box(card);
        captions[card.dataset.slot] = box(card.closest(".slot").querySelector(".caption"));
    }
    const root = document.documentElement;
    return {cards, captions, felt: box(document.querySelector(".felt")),
            infobar: box(document.querySelector(".infobar")),
            scroll: {height: root.scrollHeight, width: root.scrollWidth},
            window: {height: innerHeight, width: innerWidth}};
}"""


def right(b):
    return b["x"] + b["w"]


def bottom(b):
    return b["y"] + b["h"]


def apart(a, b):
    """How far apart two boxes are: the larger of their horizontal and vertical gaps
    (negative when they overlap)."""
    return max(b["x"] - right(a), a["x"] - right(b), b["y"] - bottom(a), a["y"] - bottom(b))


def aligned(boxes, key):
    return max(b[key] for b in boxes) - min(b[key] for b in boxes) <= 1


def shape_faults(cards):
    """What is not the rule book's arc about these card boxes, in words."""
    faults = []
    left, top, side = ([cards[s] for s in group] for group in (LEFT, TOP, RIGHT))
    rows = [[cards[s] for s in row] for row in RESERVE_ROWS]
    if not aligned(left, "x") or not all(a["y"] < b["y"] for a, b in itertools.pairwise(left)):
        faults.append("piles 3, 2, 1 are not a column going down")
    if not aligned(top, "y") or not all(a["x"] < b["x"] for a, b in itertools.pairwise(top)):
        faults.append("piles 4 to 10 are not a row going right")
    if not aligned(side, "x") or side[0]["y"] >= side[1]["y"]:
        faults.append("piles 11 and 12 are not a column going down")
    top_row_bottom = max(bottom(b) for b in top)
    if min(b["y"] for b in left + side) < top_row_bottom + GAP:
        faults.append("the side piles are not under the top row")
    if left[0]["x"] > top[0]["x"] + 1 or side[0]["x"] < top[-1]["x"] - 1:
        faults.append("the side piles are not at the ends of the top row")
    if not all(aligned(row, "y") for row in rows) or rows[0][0]["y"] >= rows[1][0]["y"]:
        faults.append("the reserve is not two rows, R1-R4 over R5-R8")
    if not all(abs(a["x"] - b["x"]) <= 1 for a, b in zip(*rows, strict=True)):
        faults.append("the reserve's rows are not one over the other")
    reserve = rows[0] + rows[1]
    inside = (
        min(b["x"] for b in reserve) >= right(left[0]) + GAP
        and max(right(b) for b in reserve) <= side[0]["x"] - GAP
        and min(b["y"] for b in reserve) >= top_row_bottom + GAP
        and max(bottom(b) for b in reserve) <= bottom(left[-1]) + 1
    )
    if not inside:
        faults.append("the reserve is not inside the arc, clear of the piles")
    middle = (top[0]["x"] + right(top[-1])) / 2
    if abs((min(b["x"] for b in reserve) + max(right(b) for b in reserve)) / 2 - middle) > 2:
        faults.append("the reserve is not in the arc's middle")
    return faults


def spacing_faults(cards, captions):
    """Cards closer than GAP, captions over a card, cards of different sizes."""
    faults = [
        f"{a} and {b} are {apart(cards[a], cards[b]):.1f}px apart"
        for a, b in itertools.combinations(cards, 2)
        if apart(cards[a], cards[b]) < GAP
    ]
    faults += [
        f"the caption of {a} covers {b}"
        for a, b in itertools.permutations(cards, 2)
        if apart(captions[a], cards[b]) < 0
    ]
    if max(b["w"] for b in cards.values()) - min(b["w"] for b in cards.values()) > 1:
        faults.append("the cards are not all the same size")
    return faults


def assert_the_arc_fits(page, path, dealt=True):
    """The arc fits the window; `dealt`: and it is the rule book's exact shape, as it is
    before any move (a played pile's card sits lower by its depth)."""
    page.wait_for_function(SETTLED)
    seen = page.evaluate(MEASURE)
    cards, felt, window = seen["cards"], seen["felt"], seen["window"]
    if dealt:
        assert shape_faults(cards) == []
    assert spacing_faults(cards, seen["captions"]) == []
    shortest = min(min(b["w"], b["h"]) for b in cards.values())
    assert shortest >= TOUCH, f"cards {shortest:.1f}px on their short side"
    assert seen["scroll"]["height"] <= window["height"], "the page scrolls down"
    assert seen["scroll"]["width"] <= window["width"], "the page scrolls sideways"
    for name, b in {**cards, "felt": felt, "info bar": seen["infobar"]}.items():
        assert b["x"] >= 0 and b["y"] >= 0, f"{name} begins off the window"
        inside = right(b) <= window["width"] and bottom(b) <= window["height"]
        assert inside, f"{name} ends off the window"
    span_w = max(right(b) for b in cards.values()) - min(b["x"] for b in cards.values())
    span_h = max(bottom(b) for b in seen["captions"].values()) - min(b["y"] for b in cards.values())
    used = max(span_w / felt["w"], span_h / felt["h"])
    assert used >= 0.85, f"the arc uses {used:.0%} of the felt's width or height"
    window_shot(page, path, timeout=30_000)  # the window is the whole page


def choose_language(page, lang):
    """Picks the page's language as a player does: from the header, in its menu on a phone."""
    menu = page.locator(".menu-button")
    if menu.is_visible():
        menu.click()
    page.locator("#language-select").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def assert_the_arc_fits_at(page, where, path, dealt=True):
    """`assert_the_arc_fits`, its failure saying `where` (the size, how the page came to it)."""
    try:
        assert_the_arc_fits(page, path, dealt)
    except AssertionError as fault:
        raise AssertionError(f"{where}: {fault}") from fault


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_solo_table_is_the_rule_books_arc_and_fits_the_window_at_every_size(
    new_page, artifacts, lang
):
    """Opened at one size (another for each language) and turned to the others, as a
    phone is turned or a window resized: the felt fits itself by its ResizeObserver
    (tests/web/test_layout.py holds that no script sizes the page from the window)."""
    sizes = sizes_from(SIZES, LANGUAGES.index(lang))
    page = new_page(locale=lang, width=sizes[0][0], height=sizes[0][1])
    open_deal(page)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(
        page.locator('.card[data-slot="P4"]').locator("xpath=..").locator(".slot-count")
    ).to_have_text("8")
    for size, where in each_size(page, sizes):
        shot = artifacts / f"arc-solo-{lang}-{size[0]}x{size[1]}.jpg"
        assert_the_arc_fits_at(page, where, shot)


def test_a_race_keeps_the_arc_beside_the_opponents_at_every_size_in_every_language(
    new_page, artifacts
):
    """One race, the host's window turned to each size and, at each, its page to each
    language, which opens it again at that size with the race running: a race set up
    for each of the 20 cases took 102.7 CPU-seconds, one a size 41."""
    host = new_page(width=SIZES[0][0], height=SIZES[0][1])
    link = create_race(host, "Ada", "HM1-N-AAAAAAB")
    guest = new_page()
    guest.goto(link)
    guest.locator("#join-name").fill("Béatrice Longname")
    guest.locator("#join button").click()
    expect(host.locator("#lobby-players li")).to_have_count(2)
    host.locator("#start").click()
    expect(host.locator('body[data-phase="running"]')).to_be_attached(timeout=15_000)
    for size in SIZES:
        turn_to(host, size)
        for lang in LANGUAGES:
            choose_language(host, lang)  # the page comes back in it, the race running
            expect(host.locator('body[data-phase="running"]')).to_be_attached()
            expect(host.locator('.card[data-slot="P1"]')).to_have_attribute("data-card", "5S")
            opponent = host.locator("#players-panel .player-name")
            expect(opponent).to_have_text("Béatrice Longname")
            expect(opponent).to_be_in_viewport()
            shot = artifacts / f"arc-race-{lang}-{size[0]}x{size[1]}.jpg"
            assert_the_arc_fits_at(host, f"at {size_label(size)} (in {lang})", shot)


def test_on_a_phone_the_headers_links_fold_into_a_menu_the_keyboard_opens_and_closes(new_page):
    page = open_deal(new_page(locale="ca", width=390, height=844))
    links = page.locator("#site-menu")
    expect(links).to_be_hidden()
    button = page.get_by_role("button", name="Menú")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(links.get_by_role("link", name="Com es juga")).to_be_visible()
    expect(links.get_by_label("Llengua")).to_be_visible()
    page.keyboard.press("Tab")  # into the menu, which follows its button
    expect(links.locator(":focus")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(links).to_be_hidden()
    expect(button).to_be_focused()
    button.click()
    page.locator('.card[data-slot="P1"]').click()  # a tap elsewhere closes it
    expect(links).to_be_hidden()
    button.click()
    page.locator("#theme-switch").focus()  # its last item
    page.keyboard.press("Tab")  # and on, out of it: it closes
    expect(links).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
