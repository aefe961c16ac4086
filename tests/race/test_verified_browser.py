"""A verified #1 in the browser: the day's winner sees "✓ verified" on its row once the
server replayed its game; a win far faster than the player's own history is shown as
held, with a verification deal to play (docs/fair-play.md)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_WIN
from game.testing import live
from tests.daily.test_ranked_daily import sign_up
from tests.support.table import open_daily, play_move

pytestmark = pytest.mark.e2e

HISTORY = """
from datetime import timedelta
from django.contrib.auth.models import User
from game.base import days
from game.models import DailyDeal, Deal, Entry, Race
user = User.objects.get(username="{name}")
deal = Deal.for_code("HM1-N-AAAAAAD")
for back in range(1, 6):
    date = days.today() - timedelta(days=back)
    DailyDeal.objects.get_or_create(date=date, defaults={{"deal": deal}})
    race = Race.objects.create(
        room="H" + "{name}"[:5] + str(back), deal=deal, mode=Race.DAILY, daily_date=date,
        status=Race.FINISHED)
    Entry.objects.create(
        race=race, player_key=f"{name}{{back}}", user=user, daily_date=date, name="{name}",
        status=Entry.WON, score=520, moves=48, cards_left=0, time_ms=3_600_000,
        review=Entry.CLEAN, ranked=True, verification=Entry.VERIFIED)
"""
"""Five ranked daily wins of an hour each on the days before today."""


def win_todays_deal(page):
    open_daily(page)
    for number, move in enumerate(RULE_BOOK_WIN, start=1):
        play_move(page, move, number)
    expect(page.locator("#won")).to_be_visible()


def test_the_days_first_win_is_verified_and_an_outlier_is_held(new_page, server):
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    first = new_page()
    sign_up(first, "quickfirst")
    win_todays_deal(first)
    first.goto(f"/daily/{today}/")
    mine = first.locator(".leaderboard tbody tr.you")
    expect(mine).to_contain_text("quickfirst")
    expect(mine.locator(".verified")).to_have_text("✓ verified")

    hasty = new_page()
    sign_up(hasty, "hastyhand")
    live.manage(server.env, "shell", "-c", HISTORY.format(name="hastyhand"))
    win_todays_deal(hasty)  # a minute or less, against an hour every day before
    hasty.goto(f"/daily/{today}/")
    held = hasty.locator(".leaderboard tbody tr.you")
    expect(held).to_contain_text("hastyhand")
    expect(held.locator(".held")).to_have_text("held")
    expect(hasty.locator(".held-note")).to_contain_text("held until it is verified")
    others = hasty.locator(".leaderboard tbody tr:not(.you)")  # other tests' rows too
    expect(others.filter(has_text="hastyhand")).to_have_count(0)
    hasty.get_by_role("button", name="Play a verification deal").click()
    expect(hasty.locator('body[data-phase="running"]')).to_be_attached()
    expect(hasty).to_have_url(re.compile(r"/race/\w+/$"))
