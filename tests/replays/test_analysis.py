"""After-game analysis: a setting that is off at first, the rule book's word beside it;
turned on, a finished game's replay says whether its deal could be won, marks the move
that lost it on the scrubber and steps through a winning line on the same table."""

import asyncio
import concurrent.futures
import re
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from game.engine import SLOTS, Deal, replay
from game.engine.examples import RULE_BOOK_DEAL
from game.testing.live import Browser, Player
from tests.support.engine import first_moves_until_blocked
from tests.support.table import card, give_up, open_deal, play_move, screenshot, set_options

pytestmark = pytest.mark.e2e

BLUNDER = first_moves_until_blocked(Deal.from_code(RULE_BOOK_DEAL))
LOST_BY = 21
"""The rule book's deal played by the first legal move: move 21 loses it, move 26 blocks."""
WINNABLE = re.compile("winnable", re.IGNORECASE)
RULE_BOOK = {
    "en": "No solver or hint button: the app does not say whether a deal can be won.",
    "fr": "Pas de solveur ni de bouton d’indice : l’app ne dit pas si une donne se gagne.",
    "ca": "No hi ha cap solucionador ni botó de pista: l’app no indica si una distribució "
    "es pot guanyar.",
    "ro": "Fără program de rezolvare sau buton de indiciu: aplicația nu spune dacă o "
    "distribuție poate fi câștigată.",
}


def my_player_id(page, room):
    return page.request.get(f"/api/races/{room}/").json()["you"]["player"]


def give_up_when_blocked(page):
    give_up(page, "#blocked-give-up")
    over = page.locator("#game-over")
    expect(over).to_be_visible()
    return over


def open_replay(page, room, player):
    page.goto(f"/replay/{room}/{player}/")
    expect(page.locator('body[data-ready="replay"]')).to_be_attached()


def analysis_answer(page, room, player):
    """The server's analysis as this page's session gets it (it is computed by now)."""
    return page.request.get(f"/api/replays/{room}/{player}/analysis/").json()


def tops(page):
    return {slot: card(page, slot).get_attribute("data-card") or None for slot in SLOTS}


@pytest.mark.parametrize("lang", ["en", "fr", "ca", "ro"])
def test_the_setting_is_off_at_first_and_quotes_the_rule_book_in_the_pages_language(new_page, lang):
    page = open_deal(new_page(locale=lang))
    page.locator(".settings-menu summary").click()
    expect(page.locator('#settings input[name="analysis"]')).not_to_be_checked()
    expect(page.locator(".rule-quote p")).to_have_text(RULE_BOOK[lang])


def test_with_the_setting_off_no_dialog_and_no_replay_says_whether_a_deal_could_be_won(
    page, server
):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    open_deal(page, server.deals["blocking"])
    play_move(page, ["P2", "P1"], 1)
    over = give_up_when_blocked(page)
    expect(over.get_by_role("link", name="Analyse in the replay")).to_be_hidden()
    expect(over).not_to_contain_text(WINNABLE)
    room = page.locator("main.play").get_attribute("data-room")
    open_replay(page, room, my_player_id(page, room))
    expect(page.locator("#analysis")).to_be_hidden()
    expect(page.locator("#lost-marker")).to_be_hidden()
    expect(page.locator("body")).not_to_contain_text(WINNABLE, use_inner_text=True)
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    assert not [url for url in asked if "/analysis/" in url], "nothing asked the solver"


def test_with_the_setting_on_the_replay_marks_the_move_that_lost_it_and_steps_a_winning_line(
    page,
):
    open_deal(page, RULE_BOOK_DEAL)
    set_options(page, analysis=True)
    for number, move in enumerate(BLUNDER, start=1):
        play_move(page, move, number)
    over = give_up_when_blocked(page)
    over.get_by_role("link", name="Analyse in the replay").click()
    expect(page.locator('body[data-ready="replay"]')).to_be_attached()
    expect(page.locator("body")).to_have_attribute("data-analysis", "done", timeout=60_000)
    panel = page.locator("#analysis")
    expect(panel).to_contain_text("This deal could be won.")
    expect(panel).to_contain_text(
        f"Move {LOST_BY} lost it: the game could be won before it, not after."
    )
    marker = page.locator("#lost-marker")
    expect(marker).to_be_visible()
    expect(marker).to_have_attribute("title", f"Move {LOST_BY} lost it")
    where = marker.bounding_box()
    track = page.locator("#scrubber").bounding_box()
    share = (where["x"] - track["x"]) / track["width"]
    assert abs(share - LOST_BY / (len(BLUNDER) + 1)) < 0.05, share  # deal, 26 moves, gave up

    panel.get_by_role("button", name=f"Go to move {LOST_BY}").click()
    expect(page.locator("body")).to_have_attribute("data-step", str(LOST_BY))
    expect(page.locator("#step-label")).to_have_text(
        f"Move {LOST_BY} of {len(BLUNDER)} · the move that lost it"  # 26 moves, then given up
    )

    room, player = urlsplit(page.url).path.split("/")[2:4]
    answer = analysis_answer(page, room, player)
    game = replay(Deal.from_code(RULE_BOOK_DEAL), BLUNDER[: LOST_BY - 1])
    panel.get_by_role("button", name=f"Step through a winning line from move {LOST_BY - 1}").click()
    expect(page.locator("body")).to_have_attribute("data-track", "line")
    expect(page.locator("#scrubber")).to_have_attribute("max", str(len(answer["line"])))
    expect(marker).to_be_hidden()
    assert tops(page) == {slot: game.playable().get(slot) for slot in SLOTS}
    for number, step in enumerate(answer["line"], start=1):
        page.keyboard.press("ArrowRight")
        game.remove(step["changed"])
        expect(page.locator("#step-label")).to_have_text(
            f"Winning line · {number} of {len(answer['line'])}"
        )
        if number <= 3:  # the engine's table, move by move
            assert tops(page) == {slot: game.playable().get(slot) for slot in SLOTS}
    expect(page.locator("#step-status")).to_have_text("won")
    expect(page.locator(".card:not(.empty)")).to_have_count(0)
    expect(page.locator("#cards-left")).to_have_text("0")
    panel.get_by_role("button", name="Back to the game").click()
    expect(page.locator("body")).to_have_attribute("data-track", "game")
    expect(page.locator("body")).to_have_attribute("data-step", str(LOST_BY - 1))
    expect(marker).to_be_visible()


# --- screenshots -------------------------------------------------------------------


async def _blunder(url):
    """A solo game of the rule book's deal by the first legal move, blocked and given up
    (real sockets; a solo game on a typed code may be watched by anyone once over)."""
    site = SimpleNamespace(url=url, port=urlsplit(url).port)
    ada = Browser()
    ada.get(f"{url}/")
    room = ada.post(f"{url}/api/races/", {"deal": RULE_BOOK_DEAL, "solo": True, "name": "Ada"})[
        "room"
    ]
    socket = Player(ada, site, room)
    player = (await socket.open())["you"]["player"]
    await socket.expect("started")  # a solo game starts when its player connects
    for seq, move in enumerate(BLUNDER, start=1):
        await socket.send("move", seq=seq, slots=move)
        await socket.expect("moved", seq=seq)
        await asyncio.sleep(0.06)  # under the socket's frame budget
    await socket.send("resign")
    await socket.expect("finished")
    await socket.close()
    return room, player


@pytest.fixture(scope="module")
def blunder(server):
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright owns this thread's loop
        return pool.submit(asyncio.run, _blunder(server.url)).result()


@pytest.mark.parametrize(("name", "width", "height"), [("desktop", 1280, 800), ("phone", 390, 844)])
def test_analysis_screens(new_page, blunder, artifacts, name, width, height):
    page = new_page(width=width, height=height)
    room, player = blunder
    open_replay(page, room, player)
    set_options(page, analysis=True)
    expect(page.locator("body")).to_have_attribute("data-analysis", "done", timeout=60_000)
    page.locator("#go-lost").click()
    expect(page.locator("body")).to_have_attribute("data-step", str(LOST_BY))
    screenshot(page, artifacts / f"analysis-{name}.jpg")
