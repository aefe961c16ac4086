"""
End-to-end fixtures: a real daphne server and Debian's Chromium driven by Playwright.

The server runs as a subprocess on a free port with its own migrated SQLite
database in a temporary folder and the in-memory channel layer (one process),
DEBUG off so the pages are the production ones (404 page included). Custom deals
the tests need are stored before it starts. The browser is /usr/bin/chromium
(or $CHROMIUM), never a downloaded one.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django must not mind.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
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
from tests.engine.conftest import BLOCKING_RESERVE, BLOCKING_TOPS, layout_with_tops
blocking = Deal(title="blocks after one pair")
blocking.make_custom(layout_with_tops(BLOCKING_TOPS, BLOCKING_RESERVE))
blocking.save()
print(json.dumps({"blocking": blocking.code}))
"""


@dataclass
class Server:
    url: str
    deals: dict


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_up(url, process, log, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"daphne did not answer in {timeout}s: {log.read_text()[-2000:]}")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("server")
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "DEBUG": "0",
        "SECRET_KEY": "e2e-tests-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    python = sys.executable
    migrate = [python, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)
    seeded = subprocess.run(
        [python, "manage.py", "shell", "-c", SEED_DEALS],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )
    deals = json.loads(seeded.stdout.strip().splitlines()[-1])
    log = workdir / "daphne.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(Path(python).with_name("daphne")), "-b", "127.0.0.1", "-p", str(port),
             "halfmoon_site.asgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log)
        yield Server(url, deals)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def browser(pytestconfig):
    from playwright.sync_api import sync_playwright

    services = pytestconfig.pluginmanager.getplugin(str(ROOT / "tests" / "conftest.py"))
    services.require("browser")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=services.chromium_location(), args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, server):
    """new_page(locale="en", width=1280, height=800) -> a page in a fresh browser session."""
    contexts = []

    def make(locale="en-US", width=1280, height=800):
        context = browser.new_context(
            base_url=server.url, locale=locale, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(10_000)
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
