"""
Issue #33's screens as a player meets them: the daily link that starts nothing before
"Play", the explorer's board as tall as the rule book's arc needs (measured, and axe
clean), end-of-game dialogs that say the score, the moves, the time and the rank or
why there is none, and the events list counting players, not players times deals.
Screenshots of each at four sizes go to tests/artifacts/ for a person to look at.
"""

import datetime
import json
import re

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_WIN
from game.testing import live
from tests.events.test_events_browser import events_end_with_their_module, make_event  # noqa: F401
from tests.support.axe import blocking_violations
from tests.support.table import (
    each_size,
    give_up,
    open_daily,
    open_deal,
    play_move,
    screenshot,
    sizes_from,
)

from .test_give_up_and_restart import sign_up

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]
AGO = 3
"""The explorer's day: three days ago, a day no other test stores games on."""
DAILY_RACES = """
from game.models import Race
print(Race.objects.filter(mode="daily", entries__user__username={name!r}).count())
"""
PAST_GAMES = """
import datetime, json
from django.utils import timezone
from game.base import days
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.models import DailyDeal, Deal, Entry, Move, Race
from game.race import actions
date = days.today() - datetime.timedelta(days={ago})
day = DailyDeal.objects.filter(date=date).first() or DailyDeal.objects.create(
    date=date, deal=Deal.for_code(RULE_BOOK_DEAL), guest_deal=Deal.for_code("HM1-N-AAAAAAC"))
if not Entry.objects.filter(race__daily_date=date).exists():
    for n, length in enumerate((5, 3, 5)):
        race = actions.create_race(day.deal, f"{{n:032d}}x"[:32], mode=Race.DAILY, name="Ada",
                                   daily_date=date)
        entry, at = race.entries.get(), timezone.now()
        for seq, move in enumerate(RULE_BOOK_WIN[:length], start=1):
            Move.objects.create(entry=entry, seq=seq, kind="move", slots=list(move), at=at)
        Race.objects.filter(pk=race.pk).update(status="finished", started_at=at, finished_at=at)
        Entry.objects.filter(pk=entry.pk).update(status="resigned", seq=length, finished_at=at)
print(json.dumps(date.isoformat()))
"""
FORGET = """
from django.contrib.auth.models import User
from game.models import Race
Race.objects.filter(entries__user__username={name!r}).delete()
User.objects.filter(username={name!r}).delete()
print("gone")
"""
ENTRIES = """
from game.models import EventEntry
for name in ("Ann", "Ben"):
    EventEntry.objects.create(event_id={event_id}, player_key=name.ljust(32, "e"), name=name)
"""


def shell(server, script):
    return live.manage(server.env, "shell", "-c", script).strip().splitlines()[-1]


@pytest.fixture(scope="module")
def past_day(server):
    """A finished day with three games on the rule book's deal: the explorer's tree."""
    return json.loads(shell(server, PAST_GAMES.format(ago=AGO)))


# ---- the daily page first ---------------------------------------------------


def test_an_account_opening_daily_starts_no_attempt_until_it_plays(new_page, server, artifacts):
    name = f"look-{datetime.datetime.now().timestamp():.0f}"
    page = new_page()
    sign_up(page, name)
    page.goto("/daily/")
    expect(page.locator('[data-daily-rule="ranked"]')).to_contain_text("ranked deal")
    expect(page.locator("[data-daily-play]")).to_be_visible()
    page.reload()  # and again: still nothing
    assert shell(server, DAILY_RACES.format(name=name)) == "0"
    page.locator("[data-daily-play]").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    assert shell(server, DAILY_RACES.format(name=name)) == "1"
    give_up(page)
    expect(page.locator("#game-over")).to_be_visible()
    page.goto("/daily/")  # back to a finished daily: the day's page, with the result
    expect(page.locator('[data-daily-status="finished"]')).to_contain_text(re.compile(r"#\d+"))
    expect(page.locator("#game-over")).to_have_count(0)
    screenshot(page, artifacts / "daily-page-played-1280x800.jpg")


def test_the_daily_page_before_play_at_every_size(new_page, artifacts):
    page = new_page(width=SIZES[0][0], height=SIZES[0][1])
    page.goto("/daily/")
    for (width, height), _ in each_size(page, SIZES):
        expect(page.locator("[data-daily-play]")).to_be_visible()
        screenshot(page, artifacts / f"daily-page-{width}x{height}.jpg")


# ---- the explorer ------------------------------------------------------------


def test_the_explorers_board_is_as_tall_as_the_arc_needs_and_axe_clean_at_every_size(
    new_page, past_day, artifacts
):
    sizes = sizes_from(SIZES, 1)
    page = new_page(width=sizes[0][0], height=sizes[0][1], bypass_csp=True)
    page.goto(f"/daily/{past_day}/explorer/?line={'-'.join(RULE_BOOK_WIN[0])}")
    cards = page.locator(".explorer-board .card")
    expect(cards).to_have_count(20)
    expect(page.locator(".explorer-board .card.selected")).not_to_have_count(0)
    for (width, height), at in each_size(page, sizes):
        felt = page.locator(".explorer-board").bounding_box()
        boxes = [cards.nth(i).bounding_box() for i in range(20)]
        lowest = max(box["y"] + box["height"] for box in boxes)
        highest = min(box["y"] for box in boxes)
        assert felt["height"] >= lowest - highest, (at, felt, lowest - highest)
        inside = highest >= felt["y"] and lowest <= felt["y"] + felt["height"]
        assert inside, f"{at}: cards out of the felt"
        assert min(box["width"] for box in boxes) >= 30, f"{at}: cards too small to read"
        found = blocking_violations(page)
        assert not found, f"{at}:\n" + "\n".join(found)
        screenshot(page, artifacts / f"explorer-{width}x{height}.jpg")


def test_a_card_of_a_next_move_follows_it_by_keyboard(new_page, past_day):
    page = new_page()
    page.goto(f"/daily/{past_day}/explorer/")
    first = RULE_BOOK_WIN[0]
    page.locator(f'.explorer-board .card[data-slot="{first[0]}"]').focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(f"line={'-'.join(first)}")))
    expect(page.locator(".explorer-trail [aria-current]")).to_be_visible()


# ---- end-of-game dialogs -----------------------------------------------------


def says_how_it_went(dialog, rank):
    expect(dialog.locator("[data-end-score]")).to_have_text(re.compile(r"^\d+$"))
    expect(dialog.locator("[data-end-moves]")).to_have_text(re.compile(r"^\d+$"))
    expect(dialog.locator("[data-end-time]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(dialog.locator(".end-rank")).to_contain_text(rank)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_solo_game_over_says_score_moves_time_and_that_practice_is_not_ranked(
    new_page, server, artifacts, width, height
):
    page = open_deal(new_page(width=width, height=height), server.deals["blocking"])
    play_move(page, ["P2", "P1"], 1)  # blocked: given up from its dialog
    give_up(page, "#blocked-give-up")
    dialog = page.locator("#game-over")
    says_how_it_went(dialog, "a solo game is not ranked")
    expect(dialog.locator("[data-end-score]")).to_have_text("10")
    expect(dialog.locator("[data-end-moves]")).to_have_text("1")
    screenshot(page, artifacts / f"end-solo-{width}x{height}.jpg")


def test_a_guests_daily_says_where_it_would_rank_among_guests(new_page, artifacts):
    page = open_daily(new_page(width=390, height=844), name="Guestly")
    give_up(page)  # the guests' deal, not the rule book's: no known move
    dialog = page.locator("#game-over")
    says_how_it_went(dialog, "Not ranked: you would rank #")
    expect(dialog.locator(".end-rank")).to_contain_text("among guests")
    screenshot(page, artifacts / "end-daily-guest-390x844.jpg")


@pytest.fixture
def winner(server):
    """An account's name; its games and itself taken away afterwards, so that its win
    does not lead today's board the ghost tests race."""
    name = f"win-{datetime.datetime.now().timestamp():.0f}"
    yield name
    shell(server, FORGET.format(name=name))


def test_an_accounts_daily_win_says_its_rank(new_page, artifacts, winner):
    page = new_page(width=1366, height=768)
    sign_up(page, winner)
    open_daily(page)
    for number, move in enumerate(RULE_BOOK_WIN, start=1):
        play_move(page, move, number)
    dialog = page.locator("#won")
    says_how_it_went(dialog, "#")
    expect(dialog.locator(".end-rank")).to_have_text(
        re.compile(r"^(Your rank today: #\d+\.|Not ranked: you would rank #\d+\..*)$")
    )
    screenshot(page, artifacts / "end-daily-won-1366x768.jpg")


# ---- events ------------------------------------------------------------------


def test_the_events_list_counts_each_player_once_whatever_the_deals(new_page, server):
    event_id = make_event(server)  # two deals
    shell(server, ENTRIES.format(event_id=event_id) + "\nprint('ok')")
    page = new_page()
    page.goto("/events/")
    line = page.locator(f'li:has(a[href="/events/{event_id}/"])')
    expect(line).to_contain_text("2 players")
    page.goto(f"/events/{event_id}/")  # a guest's page says "players" too
    expect(page.locator("[data-event-count]")).to_have_text(re.compile(r"^\d+ players?$"))
