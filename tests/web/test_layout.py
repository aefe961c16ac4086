"""
Every page of the site at the four sizes the rule book's look is held to: each felt,
board, chart and dialog has a sensible box (not collapsed, not wider than the window),
each felt's parts have a height, nothing scrolls sideways, and axe-core finds no
critical or serious violation and no page without its <h1>.

The pages come from the URL conf: every named GET route is either visited here, with
data the module makes (an account, a finished race and its replay, a running event, a
day's board with a ranked win, a past day's explorer, staff's admin pages), or named
in NOT_PAGES with why it is no page; a new route fails the test until it is one or
the other. The explorer's 19 px board (issue #33) passed every test that counted its
lines: this one measures what a person sees. Screenshots of a few in tests/artifacts/.

Each page is opened at one of the sizes, a different one from page to page, then
turned to the other three, as a phone is turned or a window resized, and checked at
each. A page's boxes follow its size through its stylesheet and the felt's
ResizeObserver, so a page turned to a size is laid out as one opened there, as long
as no script sizes a page from the window (the last test here holds that); the
turns also catch a page that does not fit again once turned. Opening each page at
each size cost the suite some 30 CPU-seconds more (docs/performance.md).
"""

import datetime
import itertools
import re
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL
from game.testing import live
from game.testing.live import ROOT
from tests.daily.test_ghost import todays_leader  # noqa: F401 - a fixture
from tests.events.test_events_browser import events_end_with_their_module, make_event  # noqa: F401
from tests.race.test_finished_screens import AGO, past_day  # noqa: F401 - a fixture
from tests.race.test_give_up_and_restart import sign_up
from tests.replays.test_replay import finished_race  # noqa: F401 - a fixture
from tests.support import axe
from tests.support.e2e import WAIT_MS
from tests.support.table import SETTLED, each_size, screenshot, sizes_from
from tests.web.test_head import NOT_GET, route_names

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]
STAFF, PASSWORD = "layout-staff", "layout-staff-42!"

NOT_PAGES = {
    "game:api-analysis": "JSON",
    "game:api-challenges": "JSON",
    "game:api-daily": "JSON",
    "game:api-daily-ghost": "JSON",
    "game:api-leaderboard": "JSON",
    "game:api-player": "JSON",
    "game:api-quick-ghost": "JSON",
    "game:api-race": "JSON",
    "game:api-ratings": "JSON",
    "game:api-replay": "JSON",
    "game:api-push": "JSON",
    "game:export": "a JSON download",
    "game:events-calendar": "an iCalendar feed",
    "game:event-calendar": "an iCalendar file",
    "game:shared-card": "the shared game's SVG card",
    "game:healthz": "a health check's text",
    "game:metrics": "Prometheus text",
    "game:manifest": "the web app manifest",
    "game:sw": "the service worker's script",
    "javascript-catalog": "the translations' script",
    "javascript-catalog-latest": "the translations' script",
}
"""Named GET routes that answer something other than a page, and what."""

ADMIN = [
    "/admin/",
    "/admin/game/dailydeal/",
    "/admin/game/deal/",
    "/admin/game/deal/add/",
    "/admin/game/event/add/",
    "/admin/game/review/flagged/",
    "/admin/game/review/",
]
"""Staff's pages (Django's admin is outside the URL conf's names): those staff work in."""

SHOTS = {"game:replay", "game:leaderboard", "game:explorer", "game:race", "game:event", "/admin/"}
"""The pages screenshotted at each size, for a person to look at."""


@dataclass
class Visit:
    name: str
    url: str
    ready: str = "h1"
    """What shows once the page is drawn (its scripts run)."""
    status: int = 200


def visitor_pages(site):
    """Every page a visitor meets, by route name."""
    today = datetime.datetime.now(datetime.UTC).date()
    year, week, _ = today.isocalendar()
    past = (today - datetime.timedelta(days=AGO)).isoformat()
    race, event = site["race"], site["event"]
    return [
        Visit("game:lobby", "/", 'body[data-ready="lobby"]'),
        Visit("game:play", f"/play/{RULE_BOOK_DEAL}/", 'body[data-phase="running"]'),
        Visit("game:race", f"/race/{race.room}/", "#standings[open]"),
        Visit("game:replay", f"/replay/{race.room}/{race.ada}/?move=20", "body[data-ready]"),
        Visit("game:daily", "/daily/"),
        Visit("game:leaderboard", f"/daily/{today.isoformat()}/", ".leaderboard"),
        Visit("game:explorer", f"/daily/{past}/explorer/", ".explorer-board"),
        Visit("game:week", "/daily/week/", ".leaderboard"),
        Visit("game:week-board-wins", f"/daily/week/{year}-W{week:02d}/", ".leaderboard"),
        Visit("game:week-board", f"/daily/week/{year}-W{week:02d}/times/", ".leaderboard"),
        Visit("game:month", f"/daily/month/{today:%Y-%m}/"),
        Visit("game:month-board", f"/daily/month/{today:%Y-%m}/wins/", ".leaderboard"),
        Visit("game:all-time", "/daily/all-time/", ".leaderboard"),
        Visit("game:all-time-board", "/daily/all-time/streaks/", ".leaderboard"),
        Visit("game:ratings", "/ratings/"),
        Visit("game:profile", f"/players/{site['leader']}/", ".leaderboard.history"),
        Visit("game:events", "/events/"),
        Visit("game:event", f"/events/{event}/", "[data-event-count]"),
        Visit("game:event-play", f"/events/{event}/play/", status=409),  # not entered: said
        Visit("game:rules", "/rules/"),
        Visit("game:offline", "/offline/"),
        Visit("game:offline-rules", "/offline/rules/"),
        Visit("game:offline-play", "/offline/play/", "main.play"),
        Visit("game:signup", "/accounts/signup/"),
        Visit("game:login", "/accounts/login/"),
        Visit("game:leagues", "/leagues/"),
        Visit("game:league-week", f"/leagues/{year}-W{week:02d}/"),
        Visit("game:reminders", "/me/reminders/", "[data-reminders]"),
        Visit("game:archive", "/daily/archive/", ".day-calendar"),
        Visit("game:archive-month", f"/daily/archive/{past[:7]}/", ".day-calendar"),
        Visit("game:shared", f"/shared/{site['shared']}/", ".share-card"),
    ]


ACCOUNT_PAGES = [
    Visit("game:me", "/me/"),
    Visit("game:password_change", "/accounts/password/"),
    Visit("game:password_change_done", "/accounts/password/done/"),
    Visit("game:delete-account", "/me/delete/"),
]
"""The pages of one's own account, visited signed up."""


BOXES = """() => {
    const viewport = document.documentElement.clientWidth;
    const shown = (el) =>
        el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
    const scrolls = (el) => {
        for (let up = el.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflowX !== "visible") return true;
        }
        return false;
    };
    const named = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
        + [...el.classList].map((c) => "." + c).join("");
    const least = { felt: [200, 150], board: [120, 24], chart: [120, 16], dialog: [200, 60] };
    const kinds = {
        felt: ".felt",
        board: "table.leaderboard, table.standings, .leaderboard-scroll, .players-panel",
        chart: "svg.chart, svg.race-chart, svg.score-chart, .history-chart, .rating-chart",
        dialog: "dialog[open]",
    };
    const problems = [];
    for (const [kind, selector] of Object.entries(kinds)) {
        for (const el of document.querySelectorAll(selector)) {
            if (!shown(el)) continue;
            const box = el.getBoundingClientRect();
            const [width, height] = least[kind];
            if (box.width < width || box.height < height) {
                const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
                problems.push(`${named(el)} collapsed: ${size}`);
            }
            if (!scrolls(el) && (box.left < -1 || box.right > viewport + 1)) {
                const span = `${Math.round(box.left)}–${Math.round(box.right)}`;
                problems.push(`${named(el)} overflows: ${span} of ${viewport}`);
            }
        }
    }
    for (const felt of document.querySelectorAll(".felt")) {
        for (const part of felt.children) {
            const placed = ["absolute", "fixed"].includes(getComputedStyle(part).position);
            const height = Math.round(part.getBoundingClientRect().height);
            if (shown(part) && !placed && height < 40) {
                problems.push(`${named(part)} in the felt: ${height} px high`);
            }
        }
    }
    const header = document.querySelector(".site-header");
    const top = header && shown(header) ? header.getBoundingClientRect() : null;
    for (const button of top ? document.querySelectorAll("main button") : []) {
        const box = button.getBoundingClientRect();
        const under = box.left < top.right && box.right > top.left
            && box.top < top.bottom && box.bottom > top.top;
        if (shown(button) && box.width && under) {
            problems.push(`${named(button)} (${button.textContent.trim()}) under the header`);
        }
    }
    const sideways = document.documentElement.scrollWidth - viewport;
    if (sideways > 1) problems.push(`the page scrolls sideways by ${sideways} px`);
    return problems;
}"""
"""What is wrong with the page's boxes, one line each (none: []): a felt, board, chart or
dialog collapsed or off the screen sideways, a felt's part flattened, a button of the
page under its header (as the replay's were on a phone held sideways), a sideways scroll."""


def axe_problems(page):
    """Critical and serious violations, and a page without its heading."""
    found = axe.violations(page)
    return [
        f"axe {v['id']} ({v['impact']}): {' '.join(map(str, node['target']))}"
        for v in found
        if v["impact"] in axe.BLOCKING or v["id"] == "page-has-heading-one"
        for node in v["nodes"]
    ]


def check_every_size(page, visit, sizes, artifacts):
    """Opens `visit` at the first of `sizes`, turns it to each of the others, and returns
    its problems at each, each naming the page and the size."""
    page.set_viewport_size({"width": sizes[0][0], "height": sizes[0][1]})
    response = page.goto(visit.url)
    if response is None or response.status != visit.status:
        return [f"{visit.name} {visit.url}: HTTP {response and response.status}"]
    expect(page.locator(visit.ready).first).to_be_attached(timeout=WAIT_MS)
    problems = []
    for size, where in each_size(page, sizes):
        found = problems_now(page, visit, size, artifacts)
        problems += [f"{visit.name} {visit.url} {where}: {p}" for p in found]
    return problems


def problems_now(page, visit, size, artifacts):
    """The page's problems as it is now, at `size` (its screenshot taken if it is one)."""
    page.wait_for_function(SETTLED)
    problems = page.evaluate(BOXES) + axe_problems(page)
    if visit.name in SHOTS:
        slug = visit.name.split(":")[-1].strip("/") or "admin"
        screenshot(page, artifacts / f"layout-{slug}-{size[0]}x{size[1]}.jpg")
    return problems


SHARED = """
from game.models import SharedRun
print(SharedRun.objects.get_or_create(entry_id={entry}, defaults={{"token": "L" * 22}})[0].token)
"""
"""Ada's finished game shared, as the end dialog's Share does."""


@pytest.fixture(scope="module")
def site(server, finished_race, past_day):  # noqa: F811 - the fixtures imported above
    """The data every size visits: a finished race, a running event, a staff account."""
    env = {**server.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    live.manage(env, "createsuperuser", "--noinput", "--username", STAFF, "--email", "s@e.org")
    event = make_event(server, left_s=50 * 60, minutes=60)  # running while every size visits
    shared = live.manage(server.env, "shell", "-c", SHARED.format(entry=finished_race.ada))
    token = shared.strip().splitlines()[-1]
    return {"race": finished_race, "event": event, "leader": None, "shared": token}


def test_every_named_get_route_is_visited_or_said_to_be_no_page():
    names = {"race": SimpleNamespace(room="ROOM", ada=0), "event": 0, "leader": "", "shared": ""}
    visited = {visit.name for visit in visitor_pages(names)}
    visited |= {visit.name for visit in ACCOUNT_PAGES}
    unlisted = route_names() - visited - set(NOT_PAGES) - set(NOT_GET)
    assert not unlisted, f"routes this test neither visits nor calls no page: {unlisted}"


def test_every_page_has_sensible_boxes_and_no_serious_axe_violation_at_every_size(
    chromium,
    server,
    site,
    todays_leader,  # noqa: F811 - the fixture imported above
    artifacts,
):
    context = chromium.new_context(
        base_url=server.url,
        viewport={"width": SIZES[0][0], "height": SIZES[0][1]},
        bypass_csp=True,  # axe-core is injected
        reduced_motion="reduce",
        service_workers="block",
    )
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    index = itertools.count()  # of the page: where its turns begin
    try:
        problems = []
        for visit in visitor_pages({**site, "leader": todays_leader}):
            problems += check_every_size(page, visit, sizes_from(SIZES, next(index)), artifacts)
        sign_up(page, f"layout-{datetime.datetime.now().timestamp():.0f}")
        for visit in ACCOUNT_PAGES:
            problems += check_every_size(page, visit, sizes_from(SIZES, next(index)), artifacts)
        staff_log_in(page)
        for url in ADMIN:
            visit = Visit(url, url, "#content")
            problems += check_every_size(page, visit, sizes_from(SIZES, next(index)), artifacts)
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def staff_log_in(page):
    page.goto("/admin/login/?next=/admin/")
    page.locator("#id_username").fill(STAFF)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#user-tools")).to_be_visible()


WINDOW_SIZE = re.compile(
    r"\b(inner|outer)(Width|Height)\b|\bscreen\.|\bmatchMedia\b|\borientation\b"
)
"""A script's reads of the window's size, or of a media query, by name."""

SIZED_FROM_THE_WINDOW = {
    ("celebrate.js", "innerWidth"),  # a won game's canvas, drawn for under three seconds
    ("celebrate.js", "innerHeight"),
    ("celebrate.js", "matchMedia"),  # (prefers-reduced-motion)
    ("theme.js", "matchMedia"),  # (prefers-color-scheme)
}
"""The reads allowed: none lays a page out."""


def test_no_script_lays_a_page_out_from_the_windows_size():
    """The test above turns pages to three of their sizes instead of opening them there:
    that is the same page only while no script sizes one from the window (a read at
    load would be stale once the window turns). The felt fits itself by its own
    ResizeObserver; everything else is the stylesheet's."""
    found = {
        (path.name, match.group(0).rstrip("."))
        for path in (ROOT / "frontend").rglob("*.js")
        for match in WINDOW_SIZE.finditer(path.read_text())
    }
    assert found == SIZED_FROM_THE_WINDOW
