"""
Real server processes for the integration tests, the browser tests and the load
benchmark: daphne processes on free loopback ports sharing one environment (the
database, Redis, settings), and clients that talk to them the way a browser does
(a session cookie from a page, then a websocket).

One launcher for all of them, so a test and the benchmark start the server the
same way operators do (docs/operations.md). A process keeps its port when it is
restarted, so a test can kill one mid-race and let its players reconnect to the
same address.
"""

import asyncio
import contextlib
import fcntl
import hashlib
import http.cookiejar
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from game.testing import commands, forks

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_MODULE = "halfmoon_site.settings"
"""The settings of the servers and commands started here: production's; the suite's own
(game/testing/settings.py) when tests/conftest.py says so."""
APPLICATION = "halfmoon_site.asgi:application"
LAUNCHER = "halfmoon_site.daphne_uvloop"
"""daphne on uvloop, as docker-compose.yml and the Makefile start it."""
ACCESS_LINE = re.compile(r'^(\S+) - - \[[^\]]*\] "([^"]*)"', re.MULTILINE)
"""A line of daphne's access log: the client (host:port), then e.g. "GET /path?query"."""


def free_port():
    """A loopback port nothing listens on: the kernel's pick, or with HALFMOON_TEST_PORTS
    ("first-last", a range of its own for each parallel test worker) the next free one of
    that range in turn: no other worker picks it, and a later server of this process does
    not get the port of one just stopped."""
    span = os.environ.get("HALFMOON_TEST_PORTS", "").strip()
    if span:
        return _ranges.setdefault(span, PortRange(span)).take()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PortRange:
    """The ports first..last, handed out in turn from a random one (two test runs sharing
    the range seldom meet), skipping any that something else holds."""

    def __init__(self, span):
        first, last = (int(end) for end in span.split("-"))
        self.ports = list(range(first, last + 1))
        self.next = random.randrange(len(self.ports))
        self.lock = threading.Lock()

    def take(self):
        with self.lock:
            for _ in self.ports:
                port = self.ports[self.next]
                self.next = (self.next + 1) % len(self.ports)
                with socket.socket() as probe:
                    try:
                        probe.bind(("127.0.0.1", port))
                    except OSError:
                        continue
                return port
        span = f"{self.ports[0]}-{self.ports[-1]}"
        raise RuntimeError(f"no free port left in HALFMOON_TEST_PORTS={span}")


_ranges = {}


def database_url(db):
    """A DATABASE_URL for a Django DATABASES entry (PostgreSQL)."""
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    host = db.get("HOST") or "127.0.0.1"
    return f"postgres://{auth}@{host}:{db.get('PORT') or 5432}/{db['NAME']}"


@contextlib.contextmanager
def own_database(db, name, template="template1"):
    """A new PostgreSQL database `name`, a copy of `template` (e.g. `migrated_template`),
    on the server of the Django DATABASES entry `db`, for servers of a test's own (the
    browser tests' run on PostgreSQL, as production does): its DATABASE_URL, the
    database dropped on exit, with any session a killed server left behind."""
    _create_database(db, name, template)
    try:
        yield database_url({**db, "NAME": name})
    finally:
        _admin(db, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _admin(db, *statements):
    """Run `statements` on the server of `db` (autocommit, as CREATE DATABASE needs);
    the last one's rows."""
    import psycopg

    with psycopg.connect(database_url({**db, "NAME": "postgres"}), autocommit=True) as admin:
        for statement in statements:
            cursor = admin.execute(statement)
        return cursor.fetchall() if cursor.description else []


def _create_database(db, name, template):
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'  # a crashed run's
    _admin(db, drop, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


MIGRATIONS = "game/migrations"


def migrated_template(db):
    """The name of a PostgreSQL database beside `db` that holds every migration of this
    tree, for test databases to copy (CREATE DATABASE ... TEMPLATE: a file copy) instead
    of each parallel worker and browser tests' server migrating its own. Named after a
    digest of the migrations and Django's version, it is kept for the next run; one
    process migrates it under a lock while the others wait, and a stale one is dropped."""
    prefix = f"test_{db['NAME']}_migrated_"
    name = prefix + _migrations_key()
    with open(Path(tempfile.gettempdir()) / f"halfmoon-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = _admin(db, f"SELECT datname FROM pg_database WHERE datname LIKE '{prefix}%'")
        if (name,) not in found:
            partial = f"{name}_partial"
            _create_database(db, partial, "template0")
            env = {**environment(database_url({**db, "NAME": partial})), "DATABASE_POOL": "0"}
            manage(env, "migrate", "--noinput", "-v", "0")
            _admin(db, f'ALTER DATABASE "{partial}" RENAME TO "{name}"')
        for (stale,) in found:
            if stale != name:
                _admin(db, f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
    return name


def _migrations_key():
    from importlib.metadata import version

    digest = hashlib.sha256(f"django={version('django')};".encode())
    for path in sorted((ROOT / MIGRATIONS).glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def environment(database_url, redis_url=None, **variables):
    """
    The environment of a server process (and of its manage.py commands): this
    process's own, the settings module, the database, Redis (none: the in-memory
    channel layer, one process only) and any setting overrides such as
    HALFMOON_COUNTDOWN_S="0.3".
    """
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE, "DATABASE_URL": database_url}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    # Every test client comes from 127.0.0.1, and a killed server's socket leases
    # stay counted for that address until they run out: no cap on sockets per
    # address here (a test of that cap sets its own).
    return {**env, "HALFMOON_SOCKETS_PER_ADDRESS": "100000", **variables}


def manage(env, *args):
    """Run `manage.py *args` with `env`; its standard output (errors go to stderr). Each
    runs in a fork of one process per environment that set Django up once (a second of
    CPU a command less: game/testing/commands.py), itself a fork of the servers' set-up
    process when the suite forks its servers (FORKED)."""
    return commands.for_environment(env, fork=forks.start_helper if FORKED else None).run(*args)


STATIC_INPUTS = ("frontend", "game/web/assets.py", "halfmoon_site/settings.py")
"""What the collected static files are made of, besides the installed packages' own."""


def collected_static():
    """A STATIC_ROOT holding this tree's static files collected as the Docker image
    collects them (hashed, with gzip and brotli copies: game/web/assets.py), for a
    server run with STATIC_ROOT as in production. Compressing every file (the admin's
    too) costs seconds of CPU, so the folder is kept in the temporary directory under
    a hash of its inputs: a later run and a parallel test worker reuse it, and a lock
    makes one of them collect while the others wait."""
    target = Path(tempfile.gettempdir()) / f"halfmoon-static-{_static_key()}"
    manifest = target / "staticfiles.json"
    if manifest.exists():
        return target
    with open(f"{target}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not manifest.exists():
            staging = Path(tempfile.mkdtemp(prefix=f"{target.name}-", dir=target.parent))
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE, "DEBUG": "1"}
            env["STATIC_ROOT"] = str(staging)
            try:
                manage(env, "collectstatic", "--noinput", "-v", "0")
                staging.rename(target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    return target


def _static_key():
    """A digest of every input of collectstatic: the files named in STATIC_INPUTS and
    the versions of the packages whose files and code go in."""
    from importlib.metadata import version

    digest = hashlib.sha256()
    for name in ("django", "whitenoise", "brotli"):
        digest.update(f"{name}={version(name)};".encode())
    for entry in STATIC_INPUTS:
        top = ROOT / entry
        for path in sorted(top.rglob("*")) if top.is_dir() else [top]:
            if path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


FORKED = False
"""Whether a daphne is forked from a process that made the imports every server makes
(game/testing/forks.py), not started anew: the suite's choice (tests/conftest.py). The
benches start servers as operators do."""
READY_S = 60
"""How long a starting daphne may take to answer /healthz: about 2 s on a quiet machine,
far more while a parallel suite loads both cores with browsers and servers."""


class Daphne:
    """One daphne (on uvloop) serving halfmoon_site.asgi:application on a loopback port it
    keeps across restarts."""

    def __init__(self, env, log_path, options=()):
        self.env, self.log_path, self.options = env, Path(log_path), tuple(options)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def command(self):
        """The command line: daphne on this port, with `options` (e.g. --proxy-headers)."""
        where = ["-b", "127.0.0.1", "-p", str(self.port)]
        return [sys.executable, "-m", LAUNCHER, *where, *self.options, APPLICATION]

    def start(self):
        """Start the process; its output goes to the log, appended across restarts."""
        if FORKED:
            self.process = forks.start(self.command(), self.env, ROOT, self.log_path)
            return self
        with self.log_path.open("a") as log:  # the child keeps its own copy of the handle
            self.process = subprocess.Popen(
                self.command(),
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self

    def wait_ready(self, timeout=READY_S):
        """Return once /healthz answers 200; raise with the log's tail if it never does."""
        wait_healthy(self, "daphne", timeout)

    def tail(self, size=2000):
        return self.log_path.read_text(errors="replace")[-size:]

    def requests(self, containing=""):
        """The requests in the access log so far (across restarts) that contain
        `containing`, as [(client, request)]. Daphne writes the log to standard output:
        the environment needs PYTHONUNBUFFERED=1 (as the Docker image sets) for it to
        be current."""
        lines = ACCESS_LINE.findall(self.log_path.read_text(errors="replace"))
        return [(client, request) for client, request in lines if containing in request]

    def kill(self, signum, timeout=10):
        """
        Send `signum` and wait until the process is gone: SIGTERM is a clean
        shutdown, SIGKILL a crash (no socket is closed politely). Its exit code.
        """
        if self.process.poll() is None:
            self.process.send_signal(signum)
        return self.process.wait(timeout)

    def restart(self, signum=signal.SIGTERM):
        """End the process with `signum`, then start it again on the same port, ready."""
        self.kill(signum)
        self.start().wait_ready()

    def stop(self):
        try:
            self.kill(signal.SIGTERM)
        except subprocess.TimeoutExpired:
            self.kill(signal.SIGKILL)


def wait_healthy(server, name, timeout):
    """Return once `server.url`/healthz answers 200; raise with `server.tail()` when its
    process exits first or `timeout` seconds pass (a daphne, or nginx in front of two)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"{name} exited with {server.process.returncode}: {server.tail()}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{name} on port {server.port} not ready in {timeout}s: {server.tail()}")


def _started(count, env, log_dir, options=()):
    """`count` daphne processes sharing `env` (and daphne's `options`), logging to
    log_dir/daphne-N.log, all started before any is waited for (they boot in
    parallel), and ready; if one is not, all are stopped again."""
    servers = [Daphne(env, Path(log_dir) / f"daphne-{n}.log", options) for n in range(count)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
    except BaseException:
        _stop(servers)
        raise
    return servers


def _stop(servers):
    for server in servers:
        if server.process is not None:
            server.stop()


@contextlib.contextmanager
def running(count, env, log_dir, options=()):
    """`count` daphne processes sharing `env` (`_started`), stopped on exit."""
    servers = _started(count, env, log_dir, options)
    try:
        yield servers
    finally:
        _stop(servers)


class AskingAgain(urllib.request.HTTPRedirectHandler):
    """Redirects followed as a browser follows them: a 307 or 308 asks again with the
    same method and body (urllib follows those for GET and HEAD only). A stopping
    replica sends the POSTs still waiting for a page turn elsewhere so."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if code not in (307, 308) or req.data is None:
            return super().redirect_request(req, fp, code, msg, headers, newurl)
        return urllib.request.Request(
            newurl,
            data=req.data,
            headers=req.headers,
            origin_req_host=req.origin_req_host,
            unverifiable=True,
            method=req.get_method(),
        )


class Browser:
    """
    The HTTP side of one player: a cookie jar, pages, the JSON API and forms with
    CSRF. Every POST carries an `Origin`, as a browser's does: Django's CSRF check
    compares it with the request's host, port included.
    """

    def __init__(self, timeout=10):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), AskingAgain()
        )
        self.timeout = timeout

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), None)

    def get(self, url):
        with self.opener.open(url, timeout=self.timeout) as response:
            return response.status, response.read()

    def post(self, url, body):
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.cookie("csrftoken")}
        request = self._posting(url, json.dumps(body).encode(), headers)
        with self.opener.open(request, timeout=self.timeout) as response:
            return json.loads(response.read())

    def submit(self, url, fields, headers=None):
        """POST a form with the CSRF token, following redirects: (status, final URL)."""
        form = {**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")}
        content = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        request = self._posting(url, urllib.parse.urlencode(form).encode(), content)
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return response.status, response.url
        except urllib.error.HTTPError as refused:
            return refused.code, refused.url

    @staticmethod
    def _posting(url, data, headers):
        origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(url))
        return urllib.request.Request(url, data=data, headers={"Origin": origin, **headers})

    def cookie_header(self):
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Player:
    """A websocket of one browser to one server, with the frames it has seen."""

    def __init__(self, browser, server, room):
        self.browser, self.server, self.room = browser, server, room
        self.seen = []
        self.ws = None

    async def open(self):
        uri = f"ws://127.0.0.1:{self.server.port}/ws/race/{self.room}/"
        self.ws = await connect(
            uri,
            origin=self.server.url,
            additional_headers={"Cookie": self.browser.cookie_header()},
            open_timeout=10,
        )
        return await self.expect("state")

    async def send(self, kind, **fields):
        await self.ws.send(json.dumps({"type": kind, **fields}))

    async def expect(self, kind, timeout=10, **match):
        """The next frame of `kind` whose fields equal `match`, skipping others."""
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await self.ws.recv())
                self.seen.append(frame)
                if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                    return frame

    async def close(self):
        await self.ws.close()


def start_servers(count, variables, log_dir):
    """`count` daphne processes on this process's environment plus `variables`,
    started and ready; the caller stops them (for benches and tests that manage
    their servers' lives themselves)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE, **variables}
    return _started(count, env, log_dir)
