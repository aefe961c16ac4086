"""
A solo game has no time limit: one begun 20 minutes ago plays on, its clock past
15:00. A race keeps its 15 minutes and says so before they run out: the time left in
a message, the clock in red. (Time passes by moving the game's start back on the
server, then reloading.)
"""

import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL
from game.testing import live
from tests.support.table import open_deal, play_move, screenshot

from .test_race import create_race

pytestmark = pytest.mark.e2e

STARTED_EARLIER = """
from datetime import timedelta
from game.models import Race
race = Race.objects.get(room="{room}")
Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(seconds={seconds}))
"""


def started_earlier(server, page, seconds):
    """The page's game as if it had begun `seconds` earlier, the page reloaded."""
    room = page.locator("main.play").get_attribute("data-room")
    live.manage(server.env, "shell", "-c", STARTED_EARLIER.format(room=room, seconds=seconds))
    page.reload()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()


def test_a_solo_game_begun_twenty_minutes_ago_plays_on(page, server):
    open_deal(page)
    play_move(page, ["P1", "P8"], 1)
    started_earlier(server, page, 20 * 60)
    expect(page.locator("#time")).to_have_text(re.compile(r"^2\d:\d\d$"))
    expect(page.locator("#moves")).to_have_text("1")
    play_move(page, ["P8", "P5", "P3"], 2)
    expect(page.locator("#table-status")).to_be_hidden()  # no "Your time ran out."
    expect(page.locator("#time")).not_to_have_class(re.compile("running-out"))
    expect(page.locator("#message")).to_be_hidden()


def test_a_race_says_how_much_time_is_left_before_it_runs_out(page, server, artifacts):
    create_race(page, "Ada", RULE_BOOK_DEAL)
    page.locator("#start").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    started_earlier(server, page, 11 * 60)  # four minutes left
    expect(page.locator("#message")).to_contain_text(re.compile(r"Time left: [34]:\d\d"))
    expect(page.locator("#time")).to_have_class(re.compile("running-out"))
    screenshot(page, artifacts / "race-time-left.jpg")
