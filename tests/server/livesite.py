"""
Real server processes for integration tests and the load benchmark: daphne
processes sharing one PostgreSQL database and one Redis, and clients that talk
to them the way a browser does (a session cookie from a page, then a websocket).
"""

import asyncio
import contextlib
import http.cookiejar
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(db):
    """A DATABASE_URL for a Django DATABASES entry (PostgreSQL)."""
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    host = db.get("HOST") or "127.0.0.1"
    return f"postgres://{auth}@{host}:{db.get('PORT') or 5432}/{db['NAME']}"


class Daphne:
    """One `daphne halfmoon_site.asgi:application` on a free loopback port."""

    def __init__(self, env, log_path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(log_path, "w")  # noqa: SIM115 - closed in stop()
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "halfmoon_site.asgi:application"],
            cwd=ROOT,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings", **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}: {self.log.name}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"daphne on port {self.port} not ready; see {self.log.name}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def start_servers(count, env, log_dir):
    servers = [Daphne(env, Path(log_dir) / f"daphne-{n}.log") for n in range(count)]
    try:
        for server in servers:
            server.wait_ready()
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


class Browser:
    """The HTTP side of one player: a cookie jar, pages, and the JSON API with CSRF."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), None)

    def get(self, url):
        with self.opener.open(url, timeout=10) as response:
            return response.status, response.read()

    def post(self, url, body):
        request = urllib.request.Request(
            url,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": self.cookie("csrftoken")},
        )
        with self.opener.open(request, timeout=10) as response:
            return json.loads(response.read())

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
