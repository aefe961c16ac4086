"""
End-to-end fixtures: a real daphne server and Debian's Chromium driven by Playwright.

The server is one process from game.testing.live on a free port, with a migrated
PostgreSQL database of its own beside the worker's test database (both copies of one
template; the moves take the production path, game/race/moves.py and arrival.py) and
the in-memory channel layer,
DEBUG off and its static files collected as the Docker image collects them (hashed
names importing hashed modules, compressed: live.collected_static, once for all the
sessions of one source tree), so the pages are the production ones (404 page
included). Custom deals the tests need are stored before it starts, and today's
daily deal is fixed: the rule book's layout as a custom deal, so a test can win it
with the rule book's line while the rule book's own code stays open for solo games.
The result checks are lowered (a win of 2 s, a median gap of 0.05 s, no check of the clock's spread,
the first move or the line) and an account ranks from its first minute, so a
browser's quick taps win ranked; scripted wins are the server tests' business.
The browser is Debian's /usr/bin/chromium-headless-shell (or $CHROMIUM), never a
downloaded one.
"""

import asyncio
import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from game.testing import live

# Playwright's sync API runs an event loop in this thread; Django must not mind.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
WAIT_MS = 20_000
"""How long an action or an `expect` may wait (Playwright's own is 5 s): `make test` runs
browsers, servers and their faults on several workers at once, on 2 cores; a step that
takes a second alone can take ten there. A deadline for failing, not a measure of speed."""
expect.set_options(timeout=WAIT_MS)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

SEED_DEALS = """
import json
from game.models import Deal
from tests.support.engine import BLOCKING_RESERVE, BLOCKING_TOPS, layout_with_tops
blocking = Deal(title="blocks after one pair")
blocking.make_custom(layout_with_tops(BLOCKING_TOPS, BLOCKING_RESERVE))
blocking.save()
from game.base import days
from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal
today = Deal(title="the rule book's layout: today's daily deal")
today.make_custom(EngineDeal.from_code(RULE_BOOK_DEAL))
today.save()
guests = Deal.for_code("HM1-N-AAAAAAC")  # the guests' own deal of the day, seeded: no solve
DailyDeal.objects.create(date=days.today(), deal=today, guest_deal=guests)
print(json.dumps({"blocking": blocking.code, "daily": today.code}))
"""


@dataclass
class Server:
    url: str
    deals: dict
    env: dict
    """The server's environment, for `live.manage(server.env, ...)` against its database."""


@pytest.fixture(scope="session")
def own_database(django_db_setup):
    """own_database(tag): a context manager giving the URL of a new PostgreSQL database
    for a server of the browser tests, named after this worker's test database and, like
    it, a copy of the migrated template (tests/conftest.py)."""
    from django.conf import settings

    def make(tag):
        db = settings.DATABASES["default"]
        # A worker whose tests need no test database of their own (`make e2e`) made none:
        # its NAME is still the shared one, its TEST NAME the worker's.
        name = db["TEST"].get("NAME") or db["NAME"]
        return live.own_database(db, f"{name}_{tag}", db["TEST"]["TEMPLATE"])

    return make


@pytest.fixture(scope="session")
def server(tmp_path_factory, own_database):
    workdir = tmp_path_factory.mktemp("server")
    with own_database("e2e") as url, serving(url, workdir) as server:
        yield server


@contextlib.contextmanager
def serving(url, workdir):
    """The shared server on the (migrated) database at `url`, seeded."""
    env = live.environment(
        url,
        DEBUG="0",
        STATIC_ROOT=str(live.collected_static()),
        SECRET_KEY="e2e-tests-only",
        HALFMOON_DAILY_SECRET="e2e-tests-only-daily",
        SECURE_COOKIES="0",  # plain HTTP on loopback: scripted clients must get their cookies
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        HALFMOON_FLAG_MIN_WIN_S="2",
        HALFMOON_FLAG_MEDIAN_GAP_S="0.05",
        HALFMOON_RANKED_MIN_AGE_H="0",
        HALFMOON_FLAG_MIN_CV="0",  # a browser's taps are as steady as a script's
        HALFMOON_FLAG_FIRST_MOVE_S="0",
        HALFMOON_FLAG_SOLVER_SHARE="2",
        HALFMOON_QUICK_ALONE_S="2",  # a quick racer alone is offered a recorded game soon
        # Every browser on one worker's server signs up and joins events as a guest from
        # 127.0.0.1: the limits per address (5 sign-ups, 10 guest entries an hour; their
        # own tests: the server tests) would refuse the sixth account or the eleventh guest.
        HALFMOON_SIGNUP_ADDRESS_LIMIT="1000/3600",
        HALFMOON_EVENT_GUEST_ADDRESS_LIMIT="1000/3600",
        # A script wins the rule book's deal (48 moves) as fast as the server answers:
        # on a quick server that outruns a socket's burst of 40 frames (its own tests:
        # tests/realtime/test_admission.py), and it is closed 4008 before it is flagged.
        HALFMOON_FRAME_BURST="100",
        # A VAPID key of the tests' own: the reminders page as a server with push shows it.
        HALFMOON_VAPID_PRIVATE_KEY="7OKrPhcWtiapyoO2Jk8ffs6Iu95H9rp8O5vzqq8ZSUY",
    )
    deals = json.loads(live.manage(env, "shell", "-c", SEED_DEALS).strip().splitlines()[-1])
    with live.running(1, env, workdir) as (daphne,):
        yield Server(daphne.url, deals, env)


@pytest.fixture(scope="session")
def worker_chromium(pytestconfig):
    """Chromium for all of a worker's browser files: one Playwright driver and one
    browser a worker, not one a file (each launch cost some 4 CPU-seconds of node,
    browser and GPU processes on a 2-core machine). Playwright's sync API marks its
    event loop as running in this thread between its calls; `pytest_runtest_protocol`
    below takes the mark off for every test that does not use it, so its own asyncio
    can start."""
    from playwright.sync_api import sync_playwright

    services = pytestconfig.pluginmanager.getplugin(str(ROOT / "tests" / "conftest.py"))
    services.require("browser")
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=services.chromium_location(), args=CHROMIUM_ARGS
    )
    pytestconfig.stash[PLAYWRIGHTS_LOOP] = asyncio._get_running_loop()
    yield browser
    with playwrights_turn(pytestconfig):  # the session's last test may use no browser
        browser.close()
        playwright.stop()
    asyncio._set_running_loop(None)
    del pytestconfig.stash[PLAYWRIGHTS_LOOP]


PLAYWRIGHTS_LOOP = pytest.StashKey[asyncio.AbstractEventLoop]()


@contextlib.contextmanager
def playwrights_turn(config):
    """Playwright's mark of a running loop, for its calls from a test that had it taken off."""
    marked = asyncio._get_running_loop()
    asyncio._set_running_loop(config.stash[PLAYWRIGHTS_LOOP])
    try:
        yield
    finally:
        asyncio._set_running_loop(marked)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test that uses no browser runs without Playwright's mark of a running loop
    (see `worker_chromium`): pytest-asyncio, asyncio.run and async_to_sync refuse to
    start under it. The mark is put back after it, for the browser's next call."""
    if "worker_chromium" in item.fixturenames:
        return (yield)
    marked = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        if marked is not None and not marked.is_closed():
            asyncio._set_running_loop(marked)


@pytest.fixture(scope="module")
def chromium(worker_chromium, pytestconfig):
    """The worker's browser for one test file; every context the file left open is
    closed with it, so no page of one file runs on while the next file's tests do."""
    yield worker_chromium
    with playwrights_turn(pytestconfig):  # the file's last test may use no browser
        for context in worker_chromium.contexts:
            context.close()


@pytest.fixture
def new_page(chromium, server):
    """new_page(locale="en", width=1280, height=800) -> a page in a fresh browser session.
    bypass_csp=True lets a test inject a script (axe-core) that the site's CSP refuses.
    The page prefers reduced motion, as many players' phones do: no card animates, so
    a tap waits for no card to settle. A test of the motion itself passes
    reduced_motion="no-preference". No service worker registers (each would precache
    every static file: 10 % of the browser's CPU and a third of the server's on three
    files): the offline tests (test_delight.py) make contexts that allow it."""
    contexts = []

    def make(locale="en-US", width=1280, height=800, bypass_csp=False, reduced_motion="reduce"):
        context = chromium.new_context(
            base_url=server.url,
            locale=locale,
            viewport={"width": width, "height": height},
            bypass_csp=bypass_csp,
            reduced_motion=reduced_motion,
            service_workers="block",
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
