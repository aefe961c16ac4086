"""A quick racer alone in the queue races a recorded game while waiting, keeps the
seat, and is taken to the quick race when someone comes. Today's ghosts are never
the game offered."""

import re

import pytest
from playwright.sync_api import expect

from game.testing import live
from tests.support.table import open_lobby

pytestmark = pytest.mark.e2e

RECORDED, TODAYS = "recordedwin", "todaysbest"
SEED = f"""
from game.base import days
from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal, Deal
from tests.support.server import racing_alone, ranked_daily_win, win_at_a_persons_pace
key = "{RECORDED}".ljust(32, "k")
deal = Deal(title="the rule book's layout, for the recorded game")  # scheduled by no test
deal.make_custom(EngineDeal.from_code(RULE_BOOK_DEAL))
deal.save()
race = racing_alone(key, deal, name="{RECORDED}")
win_at_a_persons_pace(race, key, gap_s=1)
ranked_daily_win(DailyDeal.objects.get(date=days.today()), "{TODAYS}", gap_s=1)  # newer
"""
FORGET = f"""
from django.contrib.auth.models import User
from game.models import Race
Race.objects.filter(entries__player_key="{RECORDED}".ljust(32, "k")).delete()
Race.objects.filter(entries__user__username="{TODAYS}").delete()
User.objects.filter(username="{TODAYS}").delete()
"""


@pytest.fixture
def recorded_games(server):
    """A clean win of a race on a copy of the rule book's layout (the calendar test may
    make the rule book's own deal a coming daily deal, never offered), and a newer one
    of today's daily deal (which must never be offered); taken away afterwards."""
    live.manage(server.env, "shell", "-c", SEED)
    yield
    live.manage(server.env, "shell", "-c", FORGET)


def test_alone_in_the_queue_a_recorded_game_is_raced_and_the_quick_race_still_comes(
    new_page, recorded_games
):
    ada = open_lobby(new_page())
    ada.locator("#race-form").get_by_label("Your name").fill("Ada")
    ada.get_by_role("button", name="Quick race").click()
    expect(ada.locator("#quick-count")).to_have_text("1 player waiting")
    offer = ada.locator("#quick-alone")
    expect(offer).to_contain_text(f"Ghost of {RECORDED} · won in", timeout=20_000)
    expect(offer).not_to_contain_text(TODAYS)
    expect(offer).to_contain_text("you keep your place in the queue")
    offer.get_by_role("button", name="Race this game").click()

    expect(ada).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    ghost_race = ada.url
    expect(ada.locator('body[data-phase="running"]')).to_be_attached()
    expect(ada.locator(".player.ghost")).to_contain_text(f"Ghost of {RECORDED}")
    queue = ada.locator(".quick-wait")
    expect(queue).to_contain_text("Looking for other players… 1 player waiting")

    bea = open_lobby(new_page())
    bea.get_by_role("button", name="Quick race").click()
    # A pair is seated once the first has waited HALFMOON_QUICK_WAIT_PAIR_S (10 s): at once
    # if Ada kept her seat from the lobby, 10 s later if a slow page lost it (5 s unseen).
    expect(queue).to_contain_text("Someone came: your quick race starts now.", timeout=25_000)
    for page in (bea, ada):
        expect(page).to_have_url(re.compile(r"/race/[A-Z0-9]{6}/$"), timeout=15_000)
        expect(page.locator('body[data-phase="running"]')).to_be_attached(timeout=15_000)
    assert ada.url == bea.url != ghost_race
    expect(ada.locator("#players")).to_contain_text("Player")  # Bea, who gave no name
