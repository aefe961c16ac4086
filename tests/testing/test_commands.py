"""
`manage.py` commands in forks of one set-up process (game/testing/commands.py): each
command starts as a new process would, from Django set up and nothing else; its output,
status and errors come back as a subprocess's would; what it stores, the next one reads.
"""

import subprocess

import pytest

from game.testing import commands
from game.testing.live import environment
from tests.testing.test_forks import parent

SHOW = """
import os
import game.base.days as days
print(os.getpid(), os.getppid(), getattr(days, "left_by_a_command", None))
days.left_by_a_command = "left"
"""

LEVEL = "from django.conf import settings; print(settings.LOGGING['root']['level'])"


def shell(env, code):
    """`manage.py shell -c code` (quiet: no line about the models it imported)."""
    return commands.for_environment(env).run("shell", "-v", "0", "-c", code)


def sql(statement):
    return f"from django.db import connection; c = connection.cursor(); c.execute({statement!r})"


@pytest.fixture
def env(tmp_path):
    return environment(f"sqlite:///{tmp_path / 'db.sqlite3'}", LOG_LEVEL="WARNING")


def test_each_command_is_a_new_fork_of_one_process_and_keeps_nothing_of_the_last(env):
    first, second = shell(env, SHOW).split(), shell(dict(env), SHOW).split()
    assert first[0] != second[0]  # a process a command
    assert first[1] == second[1]  # forked by the same one: the environment's
    assert first[2] == second[2] == "None"  # the first one's change did not stay


def test_a_failing_command_raises_with_its_status_its_output_and_its_errors(env, capfd):
    with pytest.raises(subprocess.CalledProcessError) as failed:
        shell(env, "print('before'); import sys; sys.exit(3)")
    assert failed.value.returncode == 3 and failed.value.output == "before\n"
    with pytest.raises(subprocess.CalledProcessError) as failed:
        shell(env, "raise ValueError('a bad snippet')")
    assert failed.value.returncode == 1
    with pytest.raises(subprocess.CalledProcessError) as failed:
        commands.for_environment(env).run("no_such_command")
    assert failed.value.returncode == 1
    errors = capfd.readouterr().err
    assert "ValueError: a bad snippet" in errors and "Unknown command: 'no_such_command'" in errors
    assert shell(env, "print('still here')") == "still here\n"


def test_what_one_command_stores_the_next_one_reads(env):
    shell(env, sql("CREATE TABLE kept (n integer)"))
    shell(env, sql("INSERT INTO kept VALUES (7)"))
    assert shell(env, sql("SELECT n FROM kept") + "; print(c.fetchall())") == "[(7,)]\n"


def test_another_environment_is_another_process_and_each_ends_when_closed(env):
    other = {**env, "LOG_LEVEL": "ERROR"}
    assert [shell(env, LEVEL), shell(other, LEVEL)] == ["WARNING\n", "ERROR\n"]
    mine, theirs = commands.for_environment(env), commands.for_environment(other)
    assert theirs is not mine and commands.for_environment(dict(env)) is mine
    for each in (mine, theirs):
        each.close()
        assert each.process.returncode == 0
    assert shell(env, "print(1)") == "1\n"  # started again when asked


AT_EXIT = """
import atexit, threading, time
atexit.register(print, "at exit")
threading.Thread(target=lambda: (time.sleep(0.3), print("the thread's end", flush=True))).start()
print("returned", flush=True)
"""


def test_a_command_ends_as_a_process_does_its_threads_then_its_exit_handlers(env):
    assert shell(env, AT_EXIT).splitlines() == ["returned", "the thread's end", "at exit"]


def test_the_suites_commands_process_is_a_fork_of_the_servers_set_up_process(env):
    """As the suite runs them (live.manage when its servers are forked): the
    environment's process comes from game/testing/forks.py's, and works as a new one."""
    from game.testing import forks

    forked = commands.for_environment({**env, "LOG_LEVEL": "INFO"}, fork=forks.start_helper)
    command, its_process, _ = forked.run("shell", "-v", "0", "-c", SHOW).split()
    assert int(its_process) == forked.process.pid != int(command)
    assert parent(forked.process.pid) == forks._setup.process.pid
    with open(f"/proc/{forked.process.pid}/comm") as name:  # process_cpu tells it by this
        assert name.read().strip() == forks.HELPER_NAME.decode()
    assert forked.run("shell", "-v", "0", "-c", LEVEL) == "INFO\n"
    with pytest.raises(subprocess.CalledProcessError) as failed:
        forked.run("shell", "-v", "0", "-c", "import sys; sys.exit(4)")
    assert failed.value.returncode == 4
    forked.close()
    assert forked.process.returncode == 0
    assert forked.run("shell", "-v", "0", "-c", "print(2)") == "2\n"  # started again
    forked.close()
