"""
The league page as a player sees it (PostgreSQL, as production): a signed-up player in a
group of 30 reads its tier, its line among the others and the lines that move them, at
the four sizes (nothing collapsed, nothing wider than the screen), axe-clean; a guest is
told what a league is and how to join.
"""

import pytest
from playwright.sync_api import expect

from game.testing import live
from tests.race.test_give_up_and_restart import sign_up
from tests.support.axe import blocking_violations
from tests.support.table import each_size, screenshot

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]

GROUP = """
from django.contrib.auth.models import User
from django.utils import timezone
from game.base import days
from game.leagues import rules
from game.models import LeagueMember
week = rules.week_start(days.today())
others = [User.objects.get_or_create(username=f"league-{{n:02}}")[0] for n in range(29)]
for n, user in enumerate([User.objects.get(username="{name}"), *others]):
    LeagueMember.objects.update_or_create(
        user=user, week=week,
        defaults=dict(tier=1, group=900, points=(n * 7) % 40, scored_at=timezone.now()),
    )
"""


NAME, PASSWORD = "league-ada", "half-moon-42!"


@pytest.fixture(scope="module")
def in_a_group(chromium, server):
    """league-ada signed up, in a group of 30 of the Crescent tier this week."""
    context = chromium.new_context(base_url=server.url)
    sign_up(context.new_page(), NAME)
    context.close()
    live.manage(server.env, "shell", "-c", GROUP.format(name=NAME))
    return NAME


def log_in(page, name):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator(".site-nav")).to_contain_text(name)


def test_a_player_reads_its_group_at_every_size(new_page, in_a_group, artifacts):
    page = new_page(width=SIZES[0][0], height=SIZES[0][1], bypass_csp=True)
    log_in(page, in_a_group)
    page.goto("/leagues/")
    expect(page.locator("h1")).to_have_text("Crescent league")
    rows = page.locator(".league-group tbody tr")
    expect(rows).to_have_count(30)
    expect(page.locator(".league-group tr.you")).to_contain_text("league-ada")
    expect(page.locator(".league-group tr.league-up")).to_have_count(5)
    expect(page.locator(".league-group tr.league-down")).to_have_count(5)
    for (width, height), at in each_size(page, SIZES):
        table = page.locator(".leaderboard-scroll").bounding_box()
        assert table["height"] > 30 * 20, at
        assert table["x"] >= 0 and table["x"] + table["width"] <= width, at
        assert page.evaluate("document.documentElement.scrollWidth") <= width, at
        screenshot(page, artifacts / f"league-{width}x{height}.jpg")
        found = blocking_violations(page)
        assert not found, f"{at}:\n" + "\n".join(found)


def test_a_guest_learns_what_a_league_is(page):
    page.goto("/leagues/")
    expect(page.locator("h1")).to_have_text("Weekly leagues")
    expect(page.locator(".empty-board")).to_contain_text("Leagues are for accounts")
    expect(page.get_by_role("link", name="Sign up").last).to_be_visible()
