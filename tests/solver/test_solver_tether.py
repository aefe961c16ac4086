"""
A server killed with SIGKILL takes its solver processes with it: the pool's
forkserver, worker and resource tracker used to run on (~82 MB) after their
daphne process was gone (game/solver/tether.py).
"""

import os
import signal
import time
from pathlib import Path

import pytest
from django.conf import settings

from game.testing.live import Browser, database_url, environment, running

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]


def children(pid):
    """The processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def descendants(pid):
    found = children(pid)
    return found + [grandchild for child in found for grandchild in descendants(child)]


def alive(pid):
    """Running (a zombie is dead: only its parent has not collected it yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(condition, timeout_s):
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.1)
    return condition()


def test_a_server_killed_with_sigkill_leaves_no_solver_process(tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(1, env, tmp_path) as (server,):
        Browser().get(f"{server.url}/api/daily/")  # today's deal is picked in the pool
        solver = descendants(server.process.pid)
        assert len(solver) >= 3  # forkserver, worker, resource tracker
        try:
            server.kill(signal.SIGKILL)
            assert wait_until(lambda: not any(alive(pid) for pid in solver), timeout_s=10)
        finally:
            for pid in filter(alive, solver):  # this test's own, should the tether fail
                os.kill(pid, signal.SIGKILL)
