"""Issue 35, a result worth sharing and races against any run: a player wins today's
daily and shares it from the win's dialog (the text on the clipboard: no card, no
code); a second browser opens the link, sees no card nor code, plays its own attempt,
then races the ghost of that run; "Play on from here" opens the replay's position.
The dialog with Share and the shared page at the four sizes are screenshots."""

import re
import time

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_WIN
from game.testing import live
from tests.daily.test_ranked_daily import sign_up
from tests.replays.test_replay import finished_race, open_replay  # noqa: F401 - finished_race: a fixture
from tests.support.table import card, give_up, open_daily, play_move, screenshot

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]
CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
NO_SHARE_SHEET = "delete Navigator.prototype.share;"  # the clipboard's way, as on a desktop
FORGET = """
from django.contrib.auth.models import User
from game.models import Race
for name in {names!r}:
    Race.objects.filter(entries__user__username=name).delete()
    User.objects.filter(username=name).delete()
"""


@pytest.fixture
def names(server):
    """Two accounts of this test's own; their games taken away afterwards, so the other
    tests find today's board as they left it."""
    stamp = f"{time.time():.0f}"[-6:]
    chosen = (f"sharer{stamp}", f"follower{stamp}")
    yield chosen
    live.manage(server.env, "shell", "-c", FORGET.format(names=chosen))


def no_secret_in(text, server):
    assert not CARD.search(text), CARD.search(text)
    assert server.deals["daily"] not in text


def shown_text(page):
    """What a page says: its main part and its meta tags (no site icon's data URL)."""
    metas = page.locator("meta").evaluate_all("(ms) => ms.map((m) => m.outerHTML).join(' ')")
    return page.locator("main").inner_text() + metas


def share_todays_win(page, server, sharer, artifacts):
    """Wins today's deal, shares it from the win's dialog: the text copied."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.add_init_script(NO_SHARE_SHEET)
    sign_up(page, sharer)
    open_daily(page)
    for number, move in enumerate(RULE_BOOK_WIN, start=1):
        play_move(page, move, number)
    dialog = page.locator("#won")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Share").click()
    expect(dialog.locator("[data-share-status]")).to_contain_text("Copied")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, artifacts / f"share-dialog-{width}x{height}.jpg")
    return page.evaluate("navigator.clipboard.readText()")


def test_a_shared_daily_win_is_raced_by_a_follower_after_its_own_attempt(
    new_page, server, names, artifacts
):
    sharer, follower = names
    text = share_todays_win(new_page(), server, sharer, artifacts)
    no_secret_in(text, server)
    lines = text.splitlines()
    assert lines[0].startswith("Half Moon Race · Daily deal · "), lines
    assert lines[1].startswith("Won · score 520 · 48 moves · ") and " · #" in lines[1], lines
    assert lines[2].endswith("🌕") and len(lines[2]) == 8, lines
    link = lines[3]
    assert re.fullmatch(rf"{re.escape(server.url)}/shared/[\w-]{{22}}/", link), link

    page = new_page()
    sign_up(page, follower)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{sharer}’s game")
    no_secret_in(shown_text(page), server)
    expect(page.locator(".share-card")).to_be_visible()
    expect(page.get_by_role("button", name="Race this game’s ghost")).to_have_count(0)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, artifacts / f"shared-page-{width}x{height}.jpg")
    page.get_by_role("link", name="Play today's deal").click()
    page.locator("[data-daily-play]").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    give_up(page)  # its own attempt, over
    expect(page.locator("#game-over")).to_be_visible()
    page.goto(link)
    page.get_by_role("button", name="Race this game’s ghost").click()
    expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    ghost = page.locator(".player.ghost")
    expect(ghost.locator(".player-name")).to_have_text(f"Ghost of {sharer}")
    no_secret_in(page.locator(".deal-code").inner_text(), server)
    play_move(page, RULE_BOOK_WIN[0], 1)


def test_play_on_from_a_replay_opens_its_position(new_page, request, artifacts):
    page = new_page(width=390, height=844)
    open_replay(page, request.getfixturevalue("finished_race"), "?move=10")
    expect(page.get_by_role("button", name="Race this game’s ghost")).to_be_visible()
    screenshot(page, artifacts / "replay-race-and-play-on-390x844.jpg")
    expect(page.locator("body")).to_have_attribute("data-step", "10")
    tops = {slot: card(page, slot).get_attribute("data-card") for slot in ("P1", "P5", "R3", "R8")}
    page.get_by_role("button", name="Play on from here").click()
    expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(page.locator("#moves")).to_have_text("10")
    for slot, top in tops.items():
        expect(card(page, slot)).to_have_attribute("data-card", top or "")
    play_move(page, RULE_BOOK_WIN[10], 11)  # and the game goes on from there
