"""
Services the test suite needs, and what happens when one is missing.

Mark a test with the service it needs; the check runs before the test:

    @pytest.mark.postgres   the Django test database must be PostgreSQL and reachable
    @pytest.mark.redis      Redis at REDIS_URL (default redis://127.0.0.1:6379/0)
    @pytest.mark.browser    Chromium at CHROMIUM (default /usr/bin/chromium-headless-shell);
                            every `e2e` test gets this marker (and `postgres`: their
                            servers' databases) automatically
    @pytest.mark.nginx      nginx at NGINX (default /usr/sbin/nginx, Debian's package),
                            for the tests of the entrance (deploy/nginx.conf)
    @pytest.mark.multiprocess  starts several server processes (no check of its own;
                            add postgres/redis as well when it needs them)

Tiers are markers, not folders: the tests sit by the package they test (tests/layout.py),
a browser test file says `pytestmark = pytest.mark.e2e`. The shared fixtures live in
tests/support/ and are seen by every test: `engine` (the rule book's layouts), `server`
(players, sockets, the fast clock; autouse for all but `e2e` tests) and `e2e` (the
browser tests' daphne server and Chromium).

A missing service skips the test with the reason, e.g. "PostgreSQL not reachable at
127.0.0.1:5432 — start it or set TEST_DATABASE_URL". When the environment variable CI
is set (and not "0"/"false"), the same test FAILS with that reason instead: CI must
never turn green by skipping the server tests.

Fixtures `redis_url`, `chromium_path` and `nginx_path` give the checked address/path
(and apply the same skip-or-fail rule), so a test need not repeat the defaults.

Parallel runs (`make test` runs `pytest -n`, pytest-xdist): each worker gwN has a test
database of its own (pytest-django names it `test_<name>_gwN`), a Redis database of
its own (REDIS_URL's number + N + 1, in this process's settings too when REDIS_URL is
set; `redis_url` gives it), a channel-layer prefix of its own for the servers it starts
(CHANNEL_LAYER_PREFIX's + -gwN: Redis pub/sub ignores database numbers), a range of loopback
ports of its own for them (HALFMOON_TEST_PORTS, game/testing/live.py), and pytest's
own temporary folders. Outside xdist everything is as given. With `--dist loadgroup`
(the Makefile's) a browser test file runs on one worker, its module fixtures made once,
and a file of `multiprocess` tests on one worker, at most two such files at a time.

Which database the suite runs on is decided before Django starts, by `make test`
running this file as a script (`python tests/conftest.py` prints a DATABASE_URL):
TEST_DATABASE_URL if set; else postgres://postgres@127.0.0.1:5432/halfmoon when
PostgreSQL answers there (pytest-django then creates and drops `test_halfmoon`); else
an empty value, meaning the SQLite default (in memory for tests). A bare
`python -m pytest` uses whatever DATABASE_URL the shell has, SQLite by default, and
skips the `postgres` tests with a hint to run `make test`.
"""

import contextlib
import functools
import os
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

pytest_plugins = ["tests.support.engine", "tests.support.server", "tests.support.e2e"]

DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/halfmoon"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's Chromium without its browser shell (package chromium-headless-shell, the
"old headless" that Playwright itself drives): the same Blink at half the CPU of
`chromium --headless` on the browser tests (31-35 against 64-67 CPU-seconds on three
files), which run on 2 cores beside their servers."""
DEFAULT_NGINX = "/usr/sbin/nginx"
SERVICE_MARKERS = ("postgres", "redis", "browser", "nginx")
FIRST_WORKER_PORT, WORKER_PORTS = 10000, 1000
"""Worker gwN's servers listen on 10000 + 1000 N and up: below Linux's ephemeral ports
(32768-60999), which outgoing connections and a bind to port 0 take."""


def in_ci():
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def tcp_reachable(host, port, timeout=1.0):
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def choose_test_database_url():
    """The DATABASE_URL for a test run; "" means the SQLite default."""
    explicit = os.environ.get("TEST_DATABASE_URL", "").strip()
    if explicit:
        return explicit, "TEST_DATABASE_URL"
    url = urlsplit(DEFAULT_POSTGRES_URL)
    if tcp_reachable(url.hostname, url.port):
        return DEFAULT_POSTGRES_URL, f"PostgreSQL at {url.hostname}:{url.port}"
    return "", f"SQLite (no PostgreSQL at {url.hostname}:{url.port})"


@functools.cache
def postgres_problem():
    from django.conf import settings

    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        return (
            "needs PostgreSQL, but the test database is SQLite — run `make test` "
            "(it uses PostgreSQL at 127.0.0.1:5432 when reachable) or set DATABASE_URL"
        )
    host, port = db.get("HOST") or "", int(db.get("PORT") or 5432)
    if not host or host.startswith("/"):
        socket_path = os.path.join(host or "/var/run/postgresql", f".s.PGSQL.{port}")
        if os.path.exists(socket_path):
            return None
        where = socket_path
    elif tcp_reachable(host, port):
        return None
    else:
        where = f"{host}:{port}"
    return f"PostgreSQL not reachable at {where} — start it or set TEST_DATABASE_URL"


def xdist_worker():
    """This pytest-xdist worker's number (gw3: 3), or None outside `pytest -n`."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else None


def worker_redis_url(url):
    """`url` for this worker: its database number plus the worker's plus one."""
    worker = xdist_worker()
    if worker is None:
        return url
    parts = urlsplit(url)
    number = parts.path.strip("/") or "0"
    if not number.isdigit():  # not a redis://host:port/N address: left as it is
        return url
    return urlunsplit(parts._replace(path=f"/{int(number) + worker + 1}"))


def redis_address():
    return worker_redis_url(os.environ.get("REDIS_URL", "").strip() or DEFAULT_REDIS_URL)


@functools.cache
def redis_problem():
    url = urlsplit(redis_address())
    host, port = url.hostname or "127.0.0.1", url.port or 6379
    database = url.path.strip("/") or "0"
    reason = f"Redis not reachable at {host}:{port} — start it or set REDIS_URL"
    try:
        with socket.create_connection((host, port), timeout=1.0) as conn:
            conn.settimeout(1.0)
            conn.sendall(f"SELECT {database}\r\nPING\r\n".encode())
            reply = b""
            with contextlib.suppress(TimeoutError):  # a server that is not Redis
                while reply.count(b"\r\n") < 2 and (chunk := conn.recv(64)):
                    reply += chunk
    except OSError:
        return reason
    # "-NOAUTH" still proves a Redis server; the URL's password is the client's business.
    if reply.startswith((b"+OK\r\n+PONG", b"-NOAUTH")):
        return None
    if reply.startswith(b"-ERR") and b"+PONG" in reply:
        return (
            f"Redis at {host}:{port} has no database {database} — each `pytest -n` worker "
            "uses one of its own: run fewer workers or raise Redis's `databases`"
        )
    return f"{host}:{port} answers, but not as Redis — start Redis or set REDIS_URL"


def chromium_location():
    return os.environ.get("CHROMIUM", "").strip() or DEFAULT_CHROMIUM


@functools.cache
def chromium_problem():
    path = chromium_location()
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return None
    return (
        f"Chromium not found at {path} — `apt-get install chromium-headless-shell` or set CHROMIUM"
    )


def nginx_location():
    return os.environ.get("NGINX", "").strip() or DEFAULT_NGINX


@functools.cache
def nginx_problem():
    path = nginx_location()
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return None
    return f"nginx not found at {path} — `apt-get install nginx` or set NGINX"


PROBLEM_CHECKS = {
    "postgres": postgres_problem,
    "redis": redis_problem,
    "browser": chromium_problem,
    "nginx": nginx_problem,
}


def require(service):
    """Skip (or, under CI, fail) the running test when `service` is unavailable."""
    problem = PROBLEM_CHECKS[service]()
    if problem is None:
        return
    if in_ci():
        pytest.fail(f"{problem} (CI is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(problem)


FAST_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"
"""The test processes' password hash (Django's own advice for tests): PBKDF2's million
rounds cost a quarter of a CPU-second a sign-up, a log-in and a refused unknown name.
The servers and commands the tests start hash so too (game/testing/settings.py)."""


STATIC_LOOKUP = True
"""whitenoise in the test processes finds a static file when it is asked for, as in
development, instead of listing and reading the headers of every file (187) each time
it starts: a test client starts it afresh on its first request, 15 ms of CPU each
time, a tenth of the workers' busy time in a profile. Production (STATIC_ROOT set)
lists the collected files once a process; the servers the tests start do that too."""


def copy_a_migrated_template(db):
    """On PostgreSQL, the test databases (one a worker) and the browser tests' servers'
    are copies of one migrated template (game/testing/live.py), made by the first process
    of the first run after a migration changes, not a migrate each."""
    if "postgresql" in db["ENGINE"] and postgres_problem() is None:
        from game.testing import live

        db.setdefault("TEST", {})["TEMPLATE"] = live.migrated_template(db)


def pytest_configure(config):
    """A fast password hash; static files looked up when asked (`STATIC_LOOKUP`); a test
    that commits leaves the tables it filled emptied by DELETE (game/testing/flush.py);
    servers forked from one set-up process (game/testing/forks.py), with the fast hash
    too (game/testing/settings.py); a worker's own Redis database, channel-layer prefix
    and ports (see the top)."""
    from django.conf import settings
    from django.test import TransactionTestCase

    from game.testing import flush, live

    settings.PASSWORD_HASHERS = [FAST_HASHER]
    settings.WHITENOISE_AUTOREFRESH = STATIC_LOOKUP
    flush.install(TransactionTestCase)
    live.FORKED = True
    live.SETTINGS_MODULE = "game.testing.settings"
    copy_a_migrated_template(settings.DATABASES["default"])
    worker = xdist_worker()
    if worker is None:
        return
    first = FIRST_WORKER_PORT + worker * WORKER_PORTS
    os.environ["HALFMOON_TEST_PORTS"] = f"{first}-{first + WORKER_PORTS - 1}"
    base = os.environ.get("CHANNEL_LAYER_PREFIX", "asgi").split("-gw")[0]  # one per run
    os.environ["CHANNEL_LAYER_PREFIX"] = f"{base}-gw{worker}"
    if settings.REDIS_URL:  # this process's settings were read before any conftest
        settings.REDIS_URL = worker_redis_url(settings.REDIS_URL)
        settings.CACHES["default"]["LOCATION"] = settings.REDIS_URL
        layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]
        layer.update(hosts=[settings.REDIS_URL], prefix=os.environ["CHANNEL_LAYER_PREFIX"])


def pytest_collection_modifyitems(config, items):
    unmarked = sorted(
        {item.nodeid.split("::")[0] for item in items if drives_a_browser_unmarked(item)}
    )
    if unmarked:
        raise pytest.UsageError(
            f"these files drive Chromium without `pytestmark = pytest.mark.e2e`: {unmarked}"
        )
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.postgres)  # their servers run on it, as production


ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def starts_servers(path):
    """Whether the test file `path` (from the root) has `multiprocess` tests."""
    return "pytest.mark.multiprocess" in (ROOT / path).read_text()


def drives_a_browser_unmarked(item):
    """Whether a test uses the browser from a file not marked `e2e`: such a file's tests
    would be spread over the workers, its module fixtures (a scripted race) made on each,
    and they would miss the `browser` and `postgres` checks (tests/replays/test_replay.py
    lost its mark in a merge; nothing saw it but the second scripted race)."""
    uses_chromium = "worker_chromium" in getattr(item, "fixturenames", ())
    return uses_chromium and not drives_a_browser(item.nodeid.split("::")[0])


@functools.cache
def drives_a_browser(path):
    """Whether the test file `path` (from the root) is a browser test file (`e2e`)."""
    return "pytestmark = pytest.mark.e2e" in (ROOT / path).read_text()


MULTIPROCESS_LANES = 2
"""How many workers may run files of `multiprocess` tests at once: each worker has its
own ports, database, Redis database and channel prefix, so two lanes cannot meet; more
would pile their servers (and their faults' seconds) onto 2 cores."""


def work_unit(nodeid):
    """What one worker runs as a whole under `--dist loadgroup`: a browser test file
    (its module fixtures, a scripted race, are made once), a file with `multiprocess`
    tests (at most MULTIPROCESS_LANES of them at a time, see SuiteGroups: their servers
    must answer within seconds through faults, so they do not pile up), or else one test."""
    path = nodeid.split("::", 1)[0]
    if drives_a_browser(path) or starts_servers(path):
        return path
    return nodeid


def work_rank(scope):
    """The order work units are handed out in: the multiprocess lanes first (the longest
    chain), then the browser files, then single tests, which fill the end evenly."""
    path = scope.split("::", 1)[0]
    if drives_a_browser(path):
        return 1
    return 0 if starts_servers(path) else 2


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # no pytest-xdist: no parallel runs
    pass
else:

    class SuiteGroups(LoadScopeScheduling):
        """`loadgroup` with the groups of `work_unit`, handed out in `work_rank`'s order
        (xdist's own marks the groups in node ids, which pytest 9.2 no longer lets it),
        never more than MULTIPROCESS_LANES workers in multiprocess files at once."""

        def _split_scope(self, nodeid):
            return work_unit(nodeid)

        def _lanes_taken(self, node):
            """Workers other than `node` with a multiprocess file not yet finished."""
            return sum(
                any(work_rank(unit) == 0 and not all(done.values()) for unit, done in units.items())
                for other, units in self.assigned_work.items()
                if other is not node
            )

        def _assign_work_unit(self, node):
            lane_free = self._lanes_taken(node) < MULTIPROCESS_LANES
            allowed = [scope for scope in self.workqueue if lane_free or work_rank(scope)]
            self.assigned_work.setdefault(node, {})
            if allowed:  # else the node waits for a lane (mark_test_complete wakes it)
                self.workqueue.move_to_end(min(allowed, key=work_rank), last=False)
                super()._assign_work_unit(node)

        def mark_test_complete(self, node, item_index, duration=0):
            super().mark_test_complete(node, item_index, duration)
            for other in self.nodes:  # a lane may have come free for a waiting worker
                if other is not node:
                    self._reschedule(other)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(config, log):
        if config.getvalue("dist") == "loadgroup":
            return SuiteGroups(config, log)
        return None


def pytest_runtest_setup(item):
    for service in SERVICE_MARKERS:
        if item.get_closest_marker(service) is not None:
            require(service)


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    engine = db["ENGINE"].rsplit(".", 1)[-1]
    where = f" at {db['HOST']}:{db.get('PORT') or 5432}" if db.get("HOST") else ""
    return [
        f"database: {engine}{where}; redis: {redis_problem() or 'ok'}; "
        f"chromium: {chromium_problem() or 'ok'}; nginx: {nginx_problem() or 'ok'}; "
        f"CI: {'yes' if in_ci() else 'no'}"
    ]


@pytest.fixture
def redis_url():
    require("redis")
    return redis_address()


@pytest.fixture
def chromium_path():
    require("browser")
    return chromium_location()


@pytest.fixture(scope="session")
def nginx_path():
    require("nginx")
    return nginx_location()


@pytest.fixture
def clock(monkeypatch):
    """The clock of what a process keeps for a second (game/base/kept.py), moved by hand:
    `clock[0] += 1.0`."""
    from game.base import kept

    now = [1000.0]
    monkeypatch.setattr(kept, "clock", lambda: now[0])
    return now


@pytest.fixture(autouse=True)
def no_shared_day():
    """Each test's day's page and event pages build their shared parts afresh
    (game/daily/shared_day.py, game/events/shared_standings.py): a part kept from the
    test before would be of a database rolled back since."""
    from game.daily import shared_day
    from game.events import shared_standings

    shared_day.forget()
    shared_standings.forget()
    yield
    shared_day.forget()
    shared_standings.forget()


@pytest.fixture(autouse=True)
def in_the_sites_language():
    """Each test ends with no language active in its thread: a view a test calls
    activates its request's language there (French, Romanian…), and a later test on
    the same worker would read its texts in it."""
    yield
    from django.utils import translation

    translation.deactivate()


if __name__ == "__main__":
    database_url, source = choose_test_database_url()
    print(f"test database: {source}", file=sys.stderr)
    print(database_url)


@pytest.fixture(scope="session", autouse=True)
def no_connection_left_in_the_sync_thread(django_db_setup):
    """The worker's test database is dropped at its end, which PostgreSQL refuses while
    any session holds it. In-process consumers run their ORM calls on asgiref's one
    thread for sync code (`database_sync_to_async` with no request around it), and the
    connection a call there leaves checked out of Django's pool is not closed by the
    pool's own close: it was the "1 other session" of the teardown warning that ended
    every run (found by naming each connection after its test and looking up the
    holder of the one left: this process, that thread). So it is closed there, before
    the drop; a warning at teardown is an error (pyproject.toml's filterwarnings)."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)
