"""
A second PostgreSQL, a streaming replica of the test database's server, started for a
test: `pg_basebackup` of the primary into a temporary folder, then that PostgreSQL's own
`postgres` binary on a free port, in hot standby. PostgreSQL refuses to run as root:
as root the folder is the `postgres` user's and both run as that user (`runuser`).
The primary must accept replication connections from 127.0.0.1 (pg_hba.conf's
`replication` entry, which `all` does not cover); `.ci/run` adds it.
"""

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from game.testing.live import database_url, free_port

REPLICATION_HBA = "host replication all 127.0.0.1/32 trust"


class Unavailable(Exception):
    """Why no replica can be started here (a missing binary, a primary that refuses)."""


class StreamingReplica:
    """A hot standby of the primary `db` (a Django DATABASES entry), on its own port."""

    def __init__(self, db):
        self.db = db
        self.port = free_port()
        self.bin = self._binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="halfmoon-replica-"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.process = None

    def url(self):
        return database_url({**self.db, "HOST": "127.0.0.1", "PORT": self.port})

    def _binaries(self):
        with psycopg.connect(self.primary_url(), autocommit=True) as primary:
            version = primary.execute("SHOW server_version_num").fetchone()[0]
            limits = [primary.execute(f"SHOW {name}").fetchone()[0] for name in _AT_LEAST]
        # A standby refuses to start with fewer of these than its primary.
        self.primarys_limits = [
            f"{name}={value}" for name, value in zip(_AT_LEAST, limits, strict=True)
        ]
        folder = Path(f"/usr/lib/postgresql/{int(version) // 10000}/bin")
        if not (folder / "pg_basebackup").exists():
            raise Unavailable(f"no pg_basebackup in {folder} (PostgreSQL's server package)")
        return folder

    def primary_url(self, name=None):
        return database_url({**self.db, "NAME": name or self.db["NAME"]})

    def _as_owner(self, *command):
        """`command` as the data folder's owner: `postgres` when we are root."""
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return list(command)

    def start(self):
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        self._base_backup()
        for name, text in (("postgresql.conf", ""), ("pg_hba.conf", _HBA)):
            self._write_as_owner(self.data / name, text)
        server = [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port)]
        settings = ["listen_addresses=127.0.0.1", f"unix_socket_directories={self.folder}"]
        settings += ["hot_standby=on", "shared_buffers=16MB", "fsync=off", *self.primarys_limits]
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                self._as_owner(*server, *(arg for s in settings for arg in ("-c", s))),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait_in_recovery()
        return self

    def _base_backup(self):
        host, port = self.db.get("HOST") or "127.0.0.1", str(self.db.get("PORT") or 5432)
        command = [str(self.bin / "pg_basebackup"), "-h", host, "-p", port, "-U", self.db["USER"]]
        command += ["-D", str(self.data), "-X", "stream", "-R", "-c", "fast"]
        done = subprocess.run(self._as_owner(*command), capture_output=True, text=True)
        if done.returncode:
            why = done.stderr.strip()
            if "pg_hba.conf" in why or "replication" in why:
                why += f" — the primary needs `{REPLICATION_HBA}` in its pg_hba.conf (.ci/run)"
            raise Unavailable(f"pg_basebackup from {host}:{port} failed: {why}")

    def _write_as_owner(self, path, text):
        subprocess.run(
            self._as_owner("tee", str(path)),
            input=text,
            text=True,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def _wait_in_recovery(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the replica exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(psycopg.OperationalError):
                if self.query("SELECT pg_is_in_recovery()") is True:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"the replica did not start: {self.log.read_text()[-2000:]}")

    def query(self, statement):
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=2) as replica:
            return replica.execute(statement).fetchone()[0]

    def pause(self):
        """Stop applying the primary's changes (they still arrive, and wait)."""
        self.query("SELECT pg_wal_replay_pause()::text")

    def resume_and_catch_up(self, timeout=30):
        """Apply again, and return once everything the primary wrote so far is applied."""
        self.query("SELECT pg_wal_replay_resume()::text")
        with psycopg.connect(self.primary_url(), autocommit=True) as primary:
            target = primary.execute("SELECT pg_current_wal_lsn()::text").fetchone()[0]
        deadline = time.monotonic() + timeout
        applied = f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"
        while not self.query(applied):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the replica did not catch up with {target}")
            time.sleep(0.05)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            # pg_ctl, not a signal: `runuser` would pass SIGTERM on (a smart shutdown,
            # waiting for clients) and kill it two seconds later. The copy is thrown away.
            stop = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
            subprocess.run(self._as_owner(*stop), capture_output=True)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


_AT_LEAST = (
    "max_connections",
    "max_worker_processes",
    "max_wal_senders",
    "max_prepared_transactions",
    "max_locks_per_transaction",
)
_HBA = "local all all trust\nhost all all 127.0.0.1/32 trust\n"
"""The replica's own pg_hba.conf: the test's clients on this machine only."""
