"""An account whose attempt at today's deal is over races today's leader from the
game-over dialog: the leader's ghost moves in the opponents panel on its own clock
while the account plays the same deal again, and every 8 removals the table says how
far ahead or behind the leader's stored game it is, the end dialog the whole split
table; in every language and at every size the split keeps to its line and the arc
its cards. A guest sees that today's ghosts are not theirs to race."""

import json
import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_WIN
from game.testing import live
from tests.support.table import (
    LISTEN,
    card,
    give_up,
    open_daily,
    play_move,
    screenshot,
    stray_boxes,
)
from tests.web.test_arc import SIZES, assert_the_arc_fits, choose_language

from .test_ranked_daily import sign_up

pytestmark = pytest.mark.e2e

LEADER, RACER = "ghostleader", "ghostracer"
SEED_LEADER = f"""
from game.base import days
from game.models import DailyDeal
from tests.support.server import ranked_daily_win
ranked_daily_win(DailyDeal.objects.get(date=days.today()), "{LEADER}", gap_s=1)
"""
FORGET = f"""
from django.contrib.auth.models import User
from game.models import Race
for name in ("{LEADER}", "{RACER}"):
    Race.objects.filter(entries__user__username=name).delete()
    User.objects.filter(username=name).delete()
"""


@pytest.fixture
def todays_leader(server):
    """An account's ranked win of today's deal, 48 moves a second apart; taken away
    afterwards with the racer's games, so the other tests find today's board as they
    left it."""
    live.manage(server.env, "shell", "-c", SEED_LEADER)
    yield LEADER
    live.manage(server.env, "shell", "-c", FORGET)


def ghost_score(page):
    return page.locator(".player.ghost .p-score")


def test_a_guest_is_told_todays_ghosts_are_not_theirs(page, todays_leader):
    page.goto("/daily/")
    expect(page.locator(".ghost-offer .ghost-note")).to_contain_text("raced by accounts")
    expect(page.get_by_role("button", name="Race the leader")).to_have_count(0)


def race_todays_leader(page, leader):
    """Signs up, gives today's attempt up at once and races `leader` from the game-over
    dialog; the leader's name as the offer shows it."""
    sign_up(page, RACER)
    open_daily(page)
    give_up(page)
    offer = page.locator("#game-over .ghost-offer")
    expect(offer).to_contain_text(leader)
    shown = offer.locator(".ghost-result").first.inner_text().split(" · ")[0]
    offer.get_by_role("button", name="Race the leader").click()
    expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(card(page, "P1")).not_to_have_attribute("data-card", "")
    return shown


def test_after_its_attempt_an_account_races_todays_leader_and_sees_it_advance(
    page, todays_leader, artifacts
):
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)  # the ghost moves only when the test says
    leader = race_todays_leader(page, todays_leader)

    ghost = page.locator(".player.ghost")
    expect(ghost.locator(".player-name")).to_have_text(f"Ghost of {leader}")
    # Where the ghost starts is the server's time in the page's last `state` (the state
    # sent at the start): 0, or the leader's first moves when a loaded server sent that
    # state more than a second after the start. From there only the test moves it.
    start = int(ghost_score(page).inner_text())
    assert start < 100, f"the ghost set off far ahead: {start}"
    for number, move in enumerate(RULE_BOOK_WIN[:3], start=1):
        play_move(page, move, number)
        page.clock.run_for(1000)
    expect(ghost_score(page)).not_to_have_text(str(start))
    first = int(ghost_score(page).inner_text())
    assert first > start
    for number, move in enumerate(RULE_BOOK_WIN[3:8], start=4):
        play_move(page, move, number)
        page.clock.run_for(1000)
    expect(ghost_score(page)).not_to_have_text(str(first))
    assert int(ghost_score(page).inner_text()) > first
    expect(ghost.locator(".miniature")).to_be_hidden()  # today's leader's line stays secret
    screenshot(page, artifacts / "ghost-desktop.jpg")

    give_up(page)  # over: the dialog offers another race
    dialog = page.locator("#game-over")
    expect(dialog.get_by_role("button", name="Race your best")).to_be_visible()
    expect(dialog.get_by_role("button", name="Race the leader")).to_be_visible()


SPLITS = """
import json
from game.models import Race
from game.race import splits
print(json.dumps(splits.race_table(Race.objects.get(room="{room}"))))
"""


def stored_splits(server, page):
    """The race's split table as the server computes it from both games' stored moves."""
    room = page.url.rstrip("/").rsplit("/", 1)[1]
    printed = live.manage(server.env, "shell", "-c", SPLITS.format(room=room))
    return json.loads(printed.splitlines()[-1])  # after the shell's own line


def split_time(ms):
    return f"{ms // 60_000}:{ms // 1000 % 60:02d}.{ms // 100 % 10}"


def gap_text(row):
    """What splits.js shows for a split: the gap between the two times as shown, its word."""
    gap = row["you_ms"] // 100 - row["ghost_ms"] // 100
    sign, word = ("\u2212", "ahead") if gap < 0 else ("+", "behind") if gap > 0 else ("±", "level")
    return f"{sign}{abs(gap) // 10}.{abs(gap) % 10}\u00a0s {word}", word


def test_on_a_phone_a_split_shows_after_8_removals_and_the_end_dialog_shows_the_table(
    new_page, server, todays_leader, artifacts
):
    page = new_page(width=390, height=844)
    race_todays_leader(page, todays_leader)
    page.evaluate(LISTEN)
    split = page.locator("#split")
    for number, move in enumerate(RULE_BOOK_WIN[:7], start=1):
        play_move(page, move, number)
    expect(split).to_be_hidden()
    play_move(page, RULE_BOOK_WIN[7], 8)
    expect(split).to_be_visible()
    eighth = stored_splits(server, page)[0]
    assert eighth["removals"] == 8 and eighth["you_ms"] is not None
    text, word = gap_text(eighth)
    expect(split.locator("dd")).to_have_text(text)
    expect(split.locator("dd")).to_have_attribute("data-standing", word)
    said = [words for words in page.evaluate("window.heard") if "removals:" in words]
    assert len(said) == 1 and said[0].endswith(f"8 moves. 8 removals: {text}"), (
        said
    )  # with the move
    for lang in ["fr", "ca", "ro", "en"]:  # the split's longer words; back in English
        choose_language(page, lang)
        expect(split).to_be_visible()  # the page back in that language, the split with it
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            expect(split).to_be_in_viewport(ratio=1)
            assert stray_boxes(page, "#split", ".infobar") == []
            shot = artifacts / f"ghost-split-{lang}-{width}x{height}.jpg"
            assert_the_arc_fits(page, shot, dealt=False)
        page.set_viewport_size({"width": 390, "height": 844})
    expect(split.locator("dd")).to_have_text(text)

    give_up(page)
    dialog = page.locator("#game-over")
    expect(dialog.get_by_role("table", name="Splits against the ghost")).to_be_visible()
    table = stored_splits(server, page)
    rows = dialog.locator(".splits tbody tr")
    expect(rows).to_have_count(6)  # the leader's 8, 16, … 48; the racer's 8
    assert [row["removals"] for row in table] == [8, 16, 24, 32, 40, 48]
    for line, row in zip(rows.all(), table, strict=True):
        you = "—" if row["you_ms"] is None else split_time(row["you_ms"])
        gap = "—" if row["you_ms"] is None else gap_text(row)[0]
        want = [str(row["removals"]), you, split_time(row["ghost_ms"]), gap]
        expect(line.locator("th, td")).to_have_text(want)
    screenshot(page, artifacts / "ghost-splits-table-phone.jpg")
