"""axe-core on every page a player meets: no critical and no serious violation.

Each entry of PAGES opens one page in the state a player sees it (a race running, a
profile with games, a dialog open) and axe-core (axe-playwright-python) checks it.
Adding a page is one line in PAGES and, if it needs one, a function that opens it.
The site's CSP refuses an injected script, so these browser contexts bypass it.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.testing import live
from tests.daily.test_ghost import LEADER, race_todays_leader, todays_leader  # noqa: F401 - a fixture
from tests.events.test_events_browser import (  # noqa: F401
    end_other_events,
    events_end_with_their_module,
    join,
    make_event,
)
from tests.race.test_give_up_and_restart import sign_up
from tests.race.test_race import create_race
from tests.replays.test_replay import finished_race, open_replay  # noqa: F401 - finished_race: a fixture
from tests.support.axe import blocking_violations
from tests.support.table import LISTEN, give_up, open_daily, open_deal, open_lobby, play_move, tap

pytestmark = pytest.mark.e2e


@dataclass
class Visitor:
    """What a page opener may use: fresh browser sessions and the tests' fixtures."""

    new_page: Callable[..., Page]
    request: pytest.FixtureRequest

    def page(self, **options) -> Page:
        return self.new_page(bypass_csp=True, **options)

    def fixture(self, name):
        return self.request.getfixturevalue(name)


def lobby(visitor):
    return open_lobby(visitor.page())


def solo_table(visitor):
    page = open_deal(visitor.page())
    play_move(page, ["P1", "P8"], 1)
    tap(page, "P2")  # a card selected: aria-pressed
    return page


def solo_table_phone(visitor):
    return open_deal(visitor.page(width=390, height=844))


def menu_phone(visitor):
    """The header's menu open on a phone's table, in Romanian (the longest words)."""
    page = open_deal(visitor.page(locale="ro", width=390, height=844))
    page.locator(".menu-button").click()
    expect(page.locator("#site-menu")).to_be_visible()
    return page


def blocked_dialog(visitor):
    page = open_deal(visitor.page(), visitor.fixture("server").deals["blocking"])
    play_move(page, ["P2", "P1"], 1)
    expect(page.locator("#blocked")).to_be_visible()
    return page


def _running_race(visitor):
    host = visitor.page()
    link = create_race(host, "Ada", RULE_BOOK_DEAL)
    guest = visitor.page()
    guest.goto(link)
    guest.locator("#join-name").fill("Bob")
    guest.locator("#join button").click()
    expect(host.locator("#lobby-players li")).to_have_count(2)
    host.locator("#start").click()
    for page in (host, guest):
        expect(page.locator('body[data-phase="running"]')).to_be_attached(timeout=15_000)
    play_move(guest, ["P1", "P8"], 1)
    expect(host.locator(".player .p-moves")).to_have_text("1")
    return host, link


def race_room(visitor):
    page = visitor.page()
    create_race(page, "Ada", RULE_BOOK_DEAL)
    return page


def race_player(visitor):
    return _running_race(visitor)[0]


def race_spectator(visitor):
    _, link = _running_race(visitor)
    page = visitor.page()
    page.goto(link)
    expect(page.locator(".player")).to_have_count(2)
    return page


def replay(visitor):
    page = visitor.page()
    open_replay(page, visitor.fixture("finished_race"), "?move=10")
    return page


SHARE_ADA = """
from game.models import Entry, SharedRun
ada = Entry.objects.get(pk={ada})
SharedRun.objects.get_or_create(entry=ada, defaults={{"token": "axe" * 7 + "a"}})
"""


def shared_game(visitor):
    """The page of a shared game (a finished race's winner), its replay and ghost offered."""
    race = visitor.fixture("finished_race")
    live.manage(visitor.fixture("server").env, "shell", "-c", SHARE_ADA.format(ada=race.ada))
    page = visitor.page()
    page.goto("/shared/axeaxeaxeaxeaxeaxeaxea/")
    expect(page.get_by_role("button", name="Race this game’s ghost")).to_be_visible()
    return page


def ghost_race_splits(visitor):
    """A ghost race given up after 8 removals, on a phone: its split, its split table."""
    page = visitor.page(width=390, height=844)
    visitor.fixture("todays_leader")
    race_todays_leader(page, LEADER)
    for number, move in enumerate(RULE_BOOK_WIN[:8], start=1):
        play_move(page, move, number)
    expect(page.locator("#split")).to_be_visible()
    give_up(page)
    expect(page.locator("#game-over .splits")).to_be_visible()
    return page


def daily_page(visitor):
    page = visitor.page()
    page.goto("/daily/")
    expect(page.locator("[data-daily-play]")).to_be_visible()
    return page


def daily_attempt(visitor):
    return open_daily(visitor.page())


def daily_board(visitor):
    page = visitor.page()
    today = datetime.datetime.now(datetime.UTC).date()
    page.goto(f"/daily/{today.isoformat()}/")
    expect(page.locator("h1")).to_be_visible()
    return page


def profile(visitor):
    page = visitor.page()
    name = f"axe-{datetime.datetime.now().timestamp():.0f}"
    sign_up(page, name)
    for _ in range(2):
        open_deal(page)
        play_move(page, ["P1", "P8"], 1)
        page.locator("#restart").click()  # the old game ends, given up, in the history
        page.locator("#restart-dialog [data-confirm]").click()
        expect(page.locator("#moves")).to_have_text("0")
    page.goto(f"/players/{name}/")
    expect(page.locator(".leaderboard.history tbody tr")).not_to_have_count(0)
    return page


def followed_profile(visitor):
    """A player's profile as one of their followers sees it: buttons, head to head."""
    stamp = f"{datetime.datetime.now().timestamp():.0f}"
    sign_up(visitor.page(), f"axg-{stamp}")
    page = visitor.page()
    sign_up(page, f"axf-{stamp}")
    page.goto(f"/players/axg-{stamp}/")
    expect(page.locator("body[data-friend-buttons='ready']")).to_be_attached()
    page.get_by_role("button", name="Follow").click()
    expect(page.get_by_role("button", name="Unfollow")).to_be_visible()
    page.reload()
    expect(page.locator(".head-to-head")).to_be_visible()
    return page


def delete_account(visitor):
    """The deletion page as a player who mistyped their password sees it."""
    page = visitor.page()
    sign_up(page, f"axd-{datetime.datetime.now().timestamp():.0f}")
    page.goto("/me/delete/")
    page.locator("input[type=password]").fill("not-my-password")
    page.locator(".account-form button[type=submit]").click()
    expect(page.locator(".field-error")).to_be_visible()
    return page


def opened(path, ready="h1"):
    """A page that needs nothing stored first: opened at `path`, ready once `ready` shows."""

    def visit(visitor):
        page = visitor.page()
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        return page

    return visit


def yesterday():
    return (datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=1)).isoformat()


def not_found(visitor):
    page = visitor.page()
    response = page.goto("/no-such-page/")
    assert response.status == 404
    return page


def event_page(visitor):
    page = visitor.page(width=390, height=844)
    page.goto(f"/events/{make_event(visitor.fixture('server'))}/")
    expect(page.locator("[data-event-count]")).to_contain_text("player")  # the first tick
    return page


def event_table(visitor):
    page = visitor.page()
    join(page, make_event(visitor.fixture("server")), "Ada")
    expect(page.locator("[data-event-you]")).to_contain_text("Your rank")
    return page


def event_over(visitor):
    page = visitor.page()
    server = visitor.fixture("server")
    event_id = make_event(server, left_s=-5)
    end_other_events(server, event_id)  # its codes show once no other event plays them
    page.goto(f"/events/{event_id}/")
    expect(page.locator(".event-deals")).to_contain_text(RULE_BOOK_DEAL)
    return page


def events_list(visitor):
    server = visitor.fixture("server")
    make_event(server), make_event(server, left_s=-5), make_event(server, left_s=900)
    page = visitor.page()
    page.goto("/events/")
    expect(page.locator(".event-list").first).to_be_visible()
    return page


@dataclass(frozen=True)
class Visit:
    name: str
    open: Callable[[Visitor], Page]


PAGES = [
    Visit("lobby", lobby),
    Visit("solo table", solo_table),
    Visit("solo table, phone", solo_table_phone),
    Visit("the table's menu open, phone", menu_phone),
    Visit("blocked dialog", blocked_dialog),
    Visit("race room", race_room),
    Visit("race player", race_player),
    Visit("race spectator", race_spectator),
    Visit("replay", replay),
    Visit("a shared game", shared_game),
    Visit("daily page", daily_page),
    Visit("daily attempt", daily_attempt),
    Visit("ghost race's splits, phone", ghost_race_splits),
    Visit("daily board", daily_board),
    Visit("profile", profile),
    Visit("a followed player's profile", followed_profile),
    Visit("deleting one's account, a wrong password", delete_account),
    Visit("404", not_found),
    Visit("how to play", opened("/rules/")),
    Visit("offline page, as the worker keeps it", opened("/offline/")),
    Visit("rating board", opened("/ratings/")),
    Visit("week board", opened("/daily/week/")),
    Visit("all-time board", opened("/daily/all-time/")),
    Visit("archive", opened("/daily/archive/")),
    Visit("explorer of yesterday", opened(f"/daily/{yesterday()}/explorer/")),
    Visit("events", events_list),
    Visit("event page, phone", event_page),
    Visit("event table", event_table),
    Visit("event over", event_over),
]
"""Every page axe checks; append a Visit for a new page."""


@pytest.mark.parametrize("visit", PAGES, ids=[visit.name for visit in PAGES])
def test_axe_finds_no_critical_or_serious_violation(new_page, request, visit):
    page = visit.open(Visitor(new_page, request))
    found = blocking_violations(page)
    assert not found, f"{visit.name} ({page.url}):\n" + "\n".join(found)


# ---- what a screen reader hears --------------------------------------------


HEARD = {
    "en": [
        "5♠ and 6♦ removed — score 10, 1 move",
        "J♣, Q♥ and K♥ removed — score 25, 2 moves",
        "Move undone — score 10, 1 move",
    ],
    "fr": [
        "5♠ et 6♦ retirés — score 10, 1 coup",
        "V♣, D♥ et R♥ retirés — score 25, 2 coups",
        "Coup annulé — score 10, 1 coup",
    ],
}


def heard(page):
    return page.evaluate("window.heard")


@pytest.mark.parametrize("lang", HEARD)
def test_each_move_is_announced_once_in_the_pages_language(new_page, lang):
    page = open_deal(new_page(locale=lang))
    page.evaluate(LISTEN)
    expected = HEARD[lang]
    play_move(page, ["P1", "P8"], 1)
    assert heard(page) == expected[:1]
    play_move(page, ["P8", "P5", "P3"], 2)
    assert heard(page) == expected[:2]
    page.keyboard.press("u")
    expect(page.locator("#moves")).to_have_text("1")
    assert heard(page) == expected


def test_a_blocked_game_is_announced_with_its_last_move_in_the_dialog(page, server):
    open_deal(page, server.deals["blocking"])
    page.evaluate(LISTEN)
    play_move(page, ["P2", "P1"], 1)
    said = "5♠ and 6♠ removed — score 10, 1 move. Blocked: no move is left."
    expect(page.locator("#blocked [data-announcer]")).to_have_text(said)
    assert heard(page) == [said]


def test_a_refused_tap_is_announced_without_the_rule_when_move_errors_are_off(page):
    open_deal(page)
    page.evaluate(LISTEN)
    tap(page, "P1", "P2")  # 5♠ then A♥: no pair, the selection clears
    expect(page.locator('main > [data-announcer="game"]')).to_have_text("Selection cleared")
    assert heard(page) == ["Selection cleared"]


def test_a_racer_hears_an_opponents_progress_summed_up(new_page, request):
    host, _ = _running_race(Visitor(new_page, request))  # Bob has played one pair
    expect(host.locator('[data-announcer="race"]')).to_have_text("Bob: score 10, 102 cards left")


# ---- the keyboard ------------------------------------------------------------


def focused(page, selector):
    return page.evaluate("(selector) => document.activeElement.matches(selector)", selector)


def test_the_skip_link_comes_first_and_the_first_card_two_tabs_away(page):
    open_deal(page)
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to the table")
    box = skip.bounding_box()
    assert box["y"] >= 0 and box["height"] >= 44 - 0.01  # on screen once focused
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused(page, ".card[data-slot]")
    page.keyboard.press("Enter")  # tapped: selected
    expect(page.locator(".card.selected")).to_have_count(1)


def test_escape_closes_the_settings_menu_and_dialogs_and_the_focus_comes_back(page):
    open_deal(page)
    play_move(page, ["P1", "P8"], 1)
    menu = page.locator(".settings-menu")
    menu.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    assert focused(page, '#settings input[name="moveErrors"]')
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    expect(menu.locator("summary")).to_be_focused()

    for opener, dialog in (("#new-game", "#new-game-dialog"), ("#restart", "#restart-dialog")):
        page.locator(opener).focus()
        page.keyboard.press("Enter")
        expect(page.locator(dialog)).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
        expect(page.locator(opener)).to_be_focused()
    expect(page.locator("#moves")).to_have_text("1")  # nothing restarted
