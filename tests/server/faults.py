"""
Outages a test can cause without touching the shared services: a TCP proxy that
stands between a server process and PostgreSQL and can be cut (every connection
dropped, new ones refused) and restored, and a private Redis on a free port that
can be stopped and started again. Other engineers' tests keep their database and
Redis throughout.
"""

import contextlib
import json
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

from game.testing.live import database_url, free_port

ANSWER_S = 8
"""A frame or request is answered well within this, even in an outage (DATABASE_WAIT_S
is 2 s and the channel layer's wait 2 s), or it hung: psycopg_pool's default wait alone
was 30 s."""


class TcpProxy:
    """127.0.0.1:<port> → target, one thread per direction; `cut()` is the target dying."""

    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self.port = free_port()
        self.links = set()
        self.lock = threading.Lock()
        self.listener = None
        self.restore()

    def restore(self):
        """Listen again (on the same port): the target is back."""
        self.listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def cut(self):
        """Drop every open connection and refuse new ones, like a stopped database."""
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.listener.close()
        with self.lock:
            links, self.links = self.links, set()
        for link in links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            link.close()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.links |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


class PrivateRedis:
    """A redis-server of our own on a free port, with no persistence."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        command = [self.binary, "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen([*command, "--daemonize", "no"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn,
            ):
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def database_url_via(port):
    """The DATABASE_URL of the test database, reached through 127.0.0.1:port (a proxy)."""
    from django.conf import settings

    return database_url({**settings.DATABASES["default"], "HOST": "127.0.0.1", "PORT": port})


def healthz(server):
    """(status, body) of /healthz, within ANSWER_S or the test fails."""
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=ANSWER_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def until_healthy(server, within_s=30):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if healthz(server)[0] == 200:
            return
        time.sleep(0.2)
    raise AssertionError(f"/healthz not 200 within {within_s} s of the service coming back")
