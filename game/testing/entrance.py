"""
The entrance for tests: nginx running deploy/nginx.conf in front of two daphne
processes from live.py, as docker-compose.yml runs it in front of web1 and web2,
so that what the tests check is the real file at work, not a reading of it.

The file is rendered for the test; only addresses and paths change:

- `listen 80;` becomes a free loopback port (compose publishes the container's 80);
- `server web1:8000` and `server web2:8000`, in both upstreams, become the two
  daphne processes;
- added: the pid file, the error log (level `info`, where nginx reports a client
  that timed out), an access log that names the upstream each request went to,
  and the temporary paths, all in the test's run directory, so nothing under
  /etc/nginx, /var or /run is written; and, when the tests run as root,
  `user root;`: nginx's workers would otherwise run as nobody, who may not enter
  the test's temporary directory to write a buffered body or response.

Every other directive is the file's own. The replicas run daphne with the
options compose gives it (`DAPHNE_OPTIONS`; tests/deploy/test_nginx.py checks them).
"""

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from game.testing.live import ROOT, free_port, running, wait_healthy

CONF = ROOT / "deploy" / "nginx.conf"
DAPHNE_OPTIONS = ()
"""Daphne's options in docker-compose.yml beyond its address: none. The app believes
the X-Forwarded-For nginx sets because nginx is HALFMOON_TRUSTED_PROXIES (game/base/clients.py)."""
REPLICAS = ("web1:8000", "web2:8000")
LISTEN = "listen 80;"
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
ACCESS_FORMAT = "'$remote_addr \"$request\" $status upstream=$upstream_addr'"


def render(conf, port, replica_ports, run_dir):
    """deploy/nginx.conf listening on `port`, in front of `replica_ports`, run from
    `run_dir`; raises if the file no longer has the lines substituted."""
    counts = {LISTEN: 1, **{f"server {replica} ": 2 for replica in REPLICAS}}
    for text, count in counts.items():
        if conf.count(text) != count:
            raise ValueError(f"{CONF} should hold {text!r} {count} time(s)")
    conf = conf.replace(LISTEN, f"listen 127.0.0.1:{port};")
    for replica, replica_port in zip(REPLICAS, replica_ports, strict=True):
        conf = conf.replace(f"server {replica} ", f"server 127.0.0.1:{replica_port} ")
    return _main_context(run_dir) + conf.replace("http {\n", "http {\n" + _logs(run_dir), 1)


def _main_context(run_dir):
    lines = [f"pid {run_dir}/nginx.pid;", f"error_log {run_dir}/error.log info;"]
    if os.geteuid() == 0:
        lines.append("user root;")
    return "\n".join(lines) + "\n"


def _logs(run_dir):
    lines = [
        f"log_format upstreams {ACCESS_FORMAT};",
        f"access_log {run_dir}/access.log upstreams;",
        *(f"{name}_temp_path {run_dir}/{name};" for name in TEMP_PATHS),
    ]
    return "".join(f"    {line}\n" for line in lines)


class Nginx:
    """One nginx master (and its workers) in the foreground, on a port of its own."""

    def __init__(self, binary, replica_ports, run_dir):
        self.binary, self.run_dir = binary, Path(run_dir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.conf_path = self.run_dir / "nginx.conf"
        self.conf_path.write_text(render(CONF.read_text(), self.port, replica_ports, run_dir))
        self.process = None

    def start(self):
        command = [self.binary, "-p", f"{self.run_dir}/", "-c", str(self.conf_path)]
        command += ["-e", str(self.run_dir / "error.log"), "-g", "daemon off;"]
        with (self.run_dir / "nginx.out").open("a") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        return self

    def wait_ready(self, timeout=30):
        """Return once /healthz answers 200 through nginx; raise with the error log if not."""
        wait_healthy(self, "nginx", timeout)

    def tail(self):
        return self.errors()

    def errors(self, size=3000):
        logs = [self.run_dir / name for name in ("nginx.out", "error.log")]
        return "".join(log.read_text(errors="replace") for log in logs if log.exists())[-size:]

    def access_log(self, containing=""):
        """The requests logged so far (lines of `ACCESS_FORMAT`) that contain `containing`."""
        log = self.run_dir / "access.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        return [line for line in lines if containing in line]

    def stop(self):
        """Fast shutdown (SIGTERM: open websockets are not waited for)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Entrance:
    """nginx and the replicas behind it. `port` and `url` are the entrance's, so a
    live.Player or live.Browser given it talks to nginx, as a browser would."""

    def __init__(self, nginx, replicas):
        self.nginx, self.replicas = nginx, replicas
        self.port, self.url = nginx.port, nginx.url

    def replicas_that_logged(self, needle):
        """The replicas whose access log has a request containing `needle`."""
        return [replica for replica in self.replicas if replica.requests(needle)]

    async def taken_by(self, room, within_s=3):
        """The replica that takes a socket for `room` through nginx (None: none did, as
        when nginx counts both failed). The room need not exist: the socket is refused
        once it was taken, and the replica's access log names it."""
        needle = f"WSCONNECT /ws/race/{room}/"
        before = {replica: len(replica.requests(needle)) for replica in self.replicas}
        url = f"ws://127.0.0.1:{self.port}/ws/race/{room}/"
        with contextlib.suppress(OSError, TimeoutError, WebSocketException):
            async with connect(url, origin=self.url, open_timeout=10) as ws:
                await asyncio.wait_for(ws.wait_closed(), 10)
        deadline = time.monotonic() + within_s  # a log line comes a moment after
        while time.monotonic() < deadline:
            for replica in self.replicas:
                if len(await asyncio.to_thread(replica.requests, needle)) > before[replica]:
                    return replica
            await asyncio.sleep(0.05)
        return None

    async def rooms_by_replica(self, tries=60):
        """A room code nginx hashes to each replica: {replica: room}."""
        found = {}
        for n in range(tries):
            replica = await self.taken_by(f"PRB{n:03d}")
            if replica is not None:
                found.setdefault(replica, f"PRB{n:03d}")
            if len(found) == len(self.replicas):
                return found
        raise RuntimeError(f"no room hashed to each replica in {tries} tries: {found}")

    async def until_routed(self, replica, room, within_s=60):
        """Return once nginx sends `room`'s sockets to `replica` again: after a replica
        refused connections, nginx skips it for fail_timeout (deploy/nginx.conf)."""
        deadline = time.monotonic() + within_s
        while await self.taken_by(room) is not replica:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nginx sent no socket to {replica.url} in {within_s} s")
            await asyncio.sleep(0.2)


@contextlib.contextmanager
def entrance(binary, env, log_dir):
    """Two daphne processes as compose runs them, and nginx with deploy/nginx.conf in
    front, all ready; stopped on exit. Logs and nginx's files go to `log_dir`."""
    with running(len(REPLICAS), env, log_dir, options=DAPHNE_OPTIONS) as replicas:
        run_dir = Path(log_dir) / "nginx"
        run_dir.mkdir()
        nginx = Nginx(binary, [replica.port for replica in replicas], run_dir).start()
        try:
            nginx.wait_ready()
            yield Entrance(nginx, replicas)
        finally:
            nginx.stop()
