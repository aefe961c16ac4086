"""
daphne forked from one set-up process (game/testing/forks.py): each server starts from
the common imports only, with its own environment, log and settings; it is watched,
signalled and reaped as the `subprocess.Popen` it stands in for; a server whose
environment changes how Python starts gets a process of its own.
"""

import os
import signal
import subprocess
import urllib.error
import urllib.request

import pytest

from game.testing import forks, live

pytestmark = pytest.mark.multiprocess


@pytest.fixture
def env(tmp_path):
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    return live.environment(database, LOG_LEVEL="INFO", PYTHONUNBUFFERED="1")


def started(env, tmp_path, name="daphne.log"):
    server = live.Daphne(env, tmp_path / name)
    server.process = forks.start(server.command(), env, live.ROOT, server.log_path)
    server.wait_ready()
    return server


def parent(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


def status(url):
    """The status of a GET of `url`, a redirect not followed."""
    opener = urllib.request.build_opener(NotFollowed)
    try:
        with opener.open(url) as response:
            return response.status
    except urllib.error.HTTPError as refused:
        return refused.code


class NotFollowed(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def test_two_servers_are_forks_of_one_process_each_with_its_own_settings(env, tmp_path):
    plain = started(env, tmp_path, "plain.log")
    https = started({**env, "HTTPS": "1"}, tmp_path, "https.log")  # plain HTTP redirected
    try:
        assert isinstance(plain.process, forks.Forked) and isinstance(https.process, forks.Forked)
        assert parent(plain.process.pid) == parent(https.process.pid) != os.getpid()
        assert status(f"{plain.url}/no-such-page/") == 404
        assert status(f"{https.url}/no-such-page/") == 301
        for server in (plain, https):  # each logs its own requests, as they come
            assert [request for _, request in server.requests("/no-such")] == ["GET /no-such-page/"]
    finally:
        plain.stop()
        https.stop()


def test_a_forked_server_is_watched_and_reaped_as_a_process_would_be(env, tmp_path):
    server = started(env, tmp_path)
    assert server.process.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        server.process.wait(0.2)
    assert server.kill(signal.SIGKILL) == -signal.SIGKILL
    assert server.process.poll() == -signal.SIGKILL
    server.process.kill()  # an ended process: nothing to do, as Popen's
    server.start().wait_ready()  # the same port again, a new fork
    assert server.kill(signal.SIGTERM) == 0


def test_a_server_with_other_python_start_up_variables_is_a_process_of_its_own(env, tmp_path):
    server = live.Daphne({**env, "PYTHONHASHSEED": "7"}, tmp_path / "own.log")
    server.process = forks.start(server.command(), server.env, live.ROOT, server.log_path)
    try:
        assert isinstance(server.process, subprocess.Popen)
        assert parent(server.process.pid) == os.getpid()
        server.wait_ready()
    finally:
        server.stop()
