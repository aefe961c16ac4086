"""
The archive and the streak's freeze in Chromium: an account with seven days won before
last Tuesday, Tuesday missed (a freeze spent) and every day since won plays last
Tuesday's deal from /daily/archive/: the table says it is unranked, the result lands
in that day's "played later" list, and the profile's streak, its freeze and its days
played are what they were; axe-core finds nothing critical or serious on the pages that
show it. Then the archive and the profile's stats at the four sizes.
"""

import datetime
import json

import pytest
from playwright.sync_api import expect

from game.testing import live
from tests.race.test_give_up_and_restart import sign_up
from tests.support.axe import blocking_violations
from tests.support.table import play_move, screenshot

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]
SEED = """
import datetime, json
from django.contrib.auth.models import User
from django.utils import timezone
from game.base import days
from game.engine import format_code
from game.engine.game import Game
from game.models import DailyDeal, Deal, Entry, Race
from game.race import actions
name = {name!r}
key = User.objects.get(username=name).account.player_key
today = days.today()
tuesday = today - datetime.timedelta(days=(today.weekday() - 1) % 7 or 7)
def day_of(date):
    deal = Deal.for_code(format_code(424_000 + date.toordinal() % 997))
    return DailyDeal.objects.get_or_create(date=date, defaults={{"deal": deal}})[0]
won = [tuesday - datetime.timedelta(days=n) for n in range(1, 8)]
won += [tuesday + datetime.timedelta(days=n) for n in range(1, (today - tuesday).days)]
for date in won:
    race = actions.create_race(day_of(date).deal, key, mode=Race.DAILY, name=name, daily_date=date)
    Race.objects.filter(pk=race.pk).update(status=Race.FINISHED)
    Entry.objects.filter(race=race).update(status=Entry.WON, score=520, time_ms=300_000,
                                           review=Entry.CLEAN, finished_at=timezone.now())
first_move = Game(day_of(tuesday).deal.engine_deal()).legal_moves()[0]
print(json.dumps({{"tuesday": tuesday.isoformat(), "streak": len(won), "move": first_move}}))
"""
"""The account `name`'s days: seven won before last Tuesday (a freeze earned), Tuesday
missed (the freeze spent), each day since won, today not played yet; and a legal first
move of Tuesday's deal (another test may have stored that day first, on a deal of its own)."""


def seeded_account(page, server):
    name = f"arc-{datetime.datetime.now().timestamp():.0f}"
    sign_up(page, name)
    said = live.manage(server.env, "shell", "-c", SEED.format(name=name))
    seeded = json.loads(said.strip().splitlines()[-1])  # after the shell's own line
    return name, seeded


def expect_streak_kept(page, name, streak):
    page.goto(f"/players/{name}/")
    expect(page.locator("[data-streak]")).to_have_text(f"{streak} · 1 freeze used")
    expect(page.locator("[data-freezes]")).to_have_text("0")
    expect(page.locator("[data-days-played]")).to_have_text(str(streak))


def test_last_tuesday_played_from_the_archive_is_unranked_and_keeps_the_streak(
    new_page, server, artifacts
):
    page = new_page(bypass_csp=True)  # axe-core is injected at the end
    name, seeded = seeded_account(page, server)
    tuesday, streak = seeded["tuesday"], seeded["streak"]
    expect_streak_kept(page, name, streak)
    page.goto(f"/daily/archive/{tuesday[:7]}/")
    row = page.locator(f'tr[data-day="{tuesday}"]')
    expect(row).to_have_attribute("data-mark", "")
    row.get_by_role("button", name="Play later").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(page.locator(".deal-code-value")).to_contain_text("played later")
    expect(page.locator(".unranked-note")).to_contain_text("Not ranked")
    play_move(page, seeded["move"], 1)
    page.locator("#restart").click()  # a solo game ends by starting it again: given up
    page.locator("#restart-dialog [data-confirm]").click()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator(".deal-code-value")).to_contain_text("played later")  # still
    page.goto(f"/daily/{tuesday}/")
    later = page.locator(".played-later")
    expect(later.locator("tbody tr").filter(has_text=name)).to_contain_text("Resigned")
    ranked = page.locator("table.leaderboard:not(.later-list)")
    expect(ranked.filter(has_text=name)).to_have_count(0)
    expect_streak_kept(page, name, streak)  # the freeze still bridges Tuesday
    page.goto(f"/daily/archive/{tuesday[:7]}/")
    expect(page.locator(f'tr[data-day="{tuesday}"]')).to_have_attribute("data-mark", "later")
    for path in (f"/daily/archive/{tuesday[:7]}/", f"/players/{name}/", f"/daily/{tuesday}/"):
        page.goto(path)
        found = blocking_violations(page)
        assert not found, f"{path}:\n" + "\n".join(found)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/daily/archive/{tuesday[:7]}/")
        screenshot(page, artifacts / f"archive-{width}x{height}.jpg")
        page.goto(f"/players/{name}/")
        screenshot(page, artifacts / f"profile-stats-{width}x{height}.jpg")
    page.goto("/daily/")  # the month's calendar on the day's page, at the last size
    cell = page.locator(f'.daily-month td[data-day="{tuesday}"]')
    expect(cell).to_have_attribute("data-mark", "later")
    screenshot(page, artifacts / "daily-month-1366x768.jpg")


def test_a_bad_or_coming_date_is_a_clear_404_page(page):
    for path in ("/daily/archive/2026-13/", "/daily/archive/3000-01/"):
        assert page.goto(path).status == 404
        expect(page.locator(".error-detail")).to_be_visible()
