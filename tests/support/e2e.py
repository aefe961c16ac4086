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
from playwright.sync_api import Error as PlaywrightError
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
    # One renderer a browser session: a page a test opens in a lent session (`new_page`)
    # joins the renderer its session keeps alive instead of starting one (separate
    # sessions still get separate renderers: Chromium never shares one between them).
    "--renderer-process-limit=1",
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
        SHARED_SERVERS.add(server.url)
        yield server


SHARED_SERVERS = set()
"""The URL of each worker's shared server: the sessions lent for it outlive a test file."""


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
def chromium(worker_chromium, lenders, pytestconfig):
    """The worker's browser for one test file; every context the file left open is
    closed with it, so no page of one file runs on while the next file's tests do
    (the sessions `new_page` lends for the shared server are cleared after each test
    instead, and kept)."""
    yield worker_chromium
    with playwrights_turn(pytestconfig):  # the file's last test may use no browser
        for url in set(lenders) - SHARED_SERVERS:  # a file's own server
            lenders.pop(url).close()
        kept = {session.context for lender in lenders.values() for session in lender.idle}
        for context in worker_chromium.contexts:
            if context not in kept:
                context.close()


class Sessions:
    """Browser sessions (contexts) lent to tests by `new_page` and cleared after each one,
    so a test's page starts in a renderer that is already running, with a warm HTTP cache
    of the hashed static files, instead of a new session's new renderer: 0.44 against
    0.66 CPU-seconds of Chromium, driver and test a game page opened (docs/performance.md).

    What a test sees is what a new session shows: no cookie, no storage of the site (local,
    IndexedDB, caches, service workers), no permission, online, its own viewport and
    motion. A session a test changed in a way that cannot be undone (an init script, a
    route, an exposed function, a listener, a clock, extra headers, a location)
    is closed instead of lent again."""

    IDLE = 6
    """Sessions kept for the next tests (each holds a renderer at about:blank)."""
    LASTING = (
        "add_init_script",
        "expose_binding",
        "expose_function",
        "on",
        "once",
        "route",
        "route_from_har",
        "route_web_socket",
        "set_extra_http_headers",
        "set_geolocation",
    )
    """A session's methods whose effect outlives the test: calling one retires it."""

    def __init__(self, browser, base_url):
        self.browser, self.base_url, self.idle, self.out = browser, base_url, [], []

    def lend(self, locale, bypass_csp):
        """A cleared session (context) made with these options, or a new one."""
        for index, session in enumerate(self.idle):
            if session.key == (locale, bypass_csp):
                self.out.append(self.idle.pop(index))
                return session.context
        self.out.append(Session(self._new(locale, bypass_csp), (locale, bypass_csp)))
        return self.out[-1].context

    def _new(self, locale, bypass_csp):
        return self.browser.new_context(
            base_url=self.base_url, locale=locale, bypass_csp=bypass_csp, service_workers="block"
        )

    def take_back(self):
        """Every session lent since the last call, cleared for the next test or closed."""
        returned, self.out = self.out, []
        for session in returned:
            if session.clear(self.base_url):
                self.idle.insert(0, session)
            else:
                self.retire(session)
        while len(self.idle) > self.IDLE:
            self.retire(self.idle.pop())

    def retire(self, session):
        session.context.close()

    def close(self):
        for session in self.idle + self.out:
            self.retire(session)
        self.idle, self.out = [], []


class Session:
    """One lent browser session: its keeper page holds its renderer between tests."""

    def __init__(self, context, key):
        self.context, self.key, self.changed = context, key, False
        context.set_default_timeout(WAIT_MS)
        self.keeper = context.new_page()
        self.devtools = context.new_cdp_session(self.keeper)
        for name in Sessions.LASTING:
            setattr(context, name, self._marking(getattr(context, name)))
        for name in ("install", "pause_at", "set_fixed_time", "set_system_time"):
            setattr(context.clock, name, self._marking(getattr(context.clock, name)))

    def _marking(self, method):
        def marked(*args, **kwargs):
            self.changed = True
            return method(*args, **kwargs)

        return marked

    def clear(self, origin):
        """Closes the test's pages and undoes what it did; False if it cannot be undone."""
        if self.changed or self.context.is_closed():
            return False
        try:
            self._undo(origin)
        except PlaywrightError:  # the session broke with its test: a new one next time
            return False
        return True

    def _undo(self, origin):
        for page in self.context.pages:
            if page != self.keeper:
                page.close()
        self.context.clear_cookies()
        self.context.clear_permissions()
        self.context.set_offline(False)
        self.context.set_default_timeout(WAIT_MS)
        self.context.set_default_navigation_timeout(WAIT_MS)
        self.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})


@pytest.fixture(scope="session")
def lenders(worker_chromium, pytestconfig):
    """{server URL: Sessions} of this worker."""
    found = {}
    yield found
    with playwrights_turn(pytestconfig):
        for lender in found.values():
            lender.close()


@pytest.fixture
def new_page(chromium, server, lenders):
    """new_page(locale="en-US", width=1280, height=800) -> a page in a browser session of
    its own: no cookie, no storage, as a new visitor's (see `Sessions`). Two calls in one
    test give two sessions: two players. bypass_csp=True lets a test inject a script
    (axe-core) that the site's CSP refuses. The page prefers reduced motion, as many
    players' phones do: no card animates, so a tap waits for no card to settle. A test of
    the motion itself passes reduced_motion="no-preference". No service worker registers
    (each would precache every static file: 10 % of the browser's CPU and a third of the
    server's on three files): the offline tests (test_delight.py) make contexts that
    allow it."""

    sessions = lenders.setdefault(server.url, Sessions(chromium, server.url))

    def make(locale="en-US", width=1280, height=800, bypass_csp=False, reduced_motion="reduce"):
        page = sessions.lend(locale, bypass_csp).new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(reduced_motion=reduced_motion)
        return page

    yield make
    sessions.take_back()


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
