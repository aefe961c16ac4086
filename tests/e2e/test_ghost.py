"""An account whose attempt at today's deal is over races today's leader from the
game-over dialog: the leader's ghost moves in the opponents panel on its own clock
while the account plays the same deal again. A guest sees that today's ghosts are
not theirs to race."""

import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_WIN
from game.testing import live

from .table import card, give_up, play_move, screenshot
from .test_ranked_daily import sign_up

LEADER, RACER = "ghostleader", "ghostracer"
SEED_LEADER = f"""
from game.base import days
from game.models import DailyDeal
from tests.server.conftest import ranked_daily_win
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


def test_after_its_attempt_an_account_races_todays_leader_and_sees_it_advance(
    page, todays_leader, artifacts
):
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)  # the ghost moves only when the test says
    sign_up(page, RACER)
    page.goto("/daily/")  # the account's attempt, given up at once
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    give_up(page)
    offer = page.locator("#game-over .ghost-offer")
    expect(offer).to_contain_text(todays_leader)
    leader = offer.locator(".ghost-result").first.inner_text().split(" · ")[0]
    offer.get_by_role("button", name="Race the leader").click()
    expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(card(page, "P1")).not_to_have_attribute("data-card", "")

    ghost = page.locator(".player.ghost")
    expect(ghost.locator(".player-name")).to_have_text(f"Ghost of {leader}")
    expect(ghost_score(page)).to_have_text("0")
    for number, move in enumerate(RULE_BOOK_WIN[:3], start=1):
        play_move(page, move, number)
        page.clock.run_for(1000)
    expect(ghost_score(page)).not_to_have_text("0")
    first = int(ghost_score(page).inner_text())
    for number, move in enumerate(RULE_BOOK_WIN[3:8], start=4):
        play_move(page, move, number)
        page.clock.run_for(1000)
    expect(ghost_score(page)).not_to_have_text(str(first))
    assert int(ghost_score(page).inner_text()) > first
    expect(ghost.locator(".miniature")).to_be_hidden()  # today's leader's line stays secret
    screenshot(page, artifacts / "ghost-desktop.png")

    give_up(page)  # over: the dialog offers another race
    dialog = page.locator("#game-over")
    expect(dialog.get_by_role("button", name="Race your best")).to_be_visible()
    expect(dialog.get_by_role("button", name="Race the leader")).to_be_visible()
