"""
The live-server launcher itself: a process killed mid-flight comes back on the
same port, which is what crash tests rely on to reconnect their players.
"""

import signal
import urllib.request

import pytest

from game.testing.live import environment, running

pytestmark = pytest.mark.multiprocess


def health(server):
    with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as response:
        return response.status


def test_a_killed_process_restarts_on_its_port_and_answers_again(tmp_path):
    env = environment(f"sqlite:///{tmp_path / 'db.sqlite3'}", LOG_LEVEL="WARNING")
    with running(1, env, tmp_path) as (server,):
        url = server.url
        assert server.kill(signal.SIGKILL) == -signal.SIGKILL
        with pytest.raises(OSError):
            health(server)
        server.restart()
        assert server.url == url and health(server) == 200
