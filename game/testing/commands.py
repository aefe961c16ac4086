"""
`manage.py` commands for the tests, each run in a fork of one process that set Django up.

A command in a new process spends about a second of CPU importing Django, Twisted and
the project before it does its work, and the suite runs some sixty of them (seeding a
browser test's server, making staff, analysing deals). Here one process per
environment sets Django up once, then forks a child for each command. The child starts
from that state as a new process would: no module state is carried from one command to
the next, and no connection or thread exists at the fork (checked before each). It runs
`manage.py`'s own entry point with its standard output in a file, and exits with the
command's status.

`python -m game.testing.commands` is that process: one JSON request a line on its
standard input ({"args": [...], "out": path}), one JSON answer a line on its standard
output ({"status": n}). It ends when its standard input does, that is with the process
that started it.
"""

import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_MODULE = "halfmoon_site.settings"


class Helper:
    """A helper process, `python -m <module>` with `env`, asked one JSON line at a time
    on its standard input and answering one on its standard output: started on the
    first request (again if it ended), ended by closing its input."""

    module = None
    name = "helper"

    def __init__(self, env):
        self.env = env
        self.lock = threading.Lock()
        self.process = None

    def _ask(self, request):
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the {self.name} process ended: status {self.process.wait()}")
        return json.loads(answer)

    def _start(self):
        return subprocess.Popen(
            [sys.executable, "-m", self.module],
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def close(self):
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)


class Commands(Helper):
    """The set-up process for one environment, started on the first command: by `fork`
    (`fork(module, env, cwd)`, game/testing/forks.py's `start_helper`: a fork of the
    servers' set-up process, whose imports spare it most of a second) when it gives one,
    else a new process."""

    module = __name__
    name = "commands'"

    def __init__(self, env, fork=None):
        super().__init__(env)
        self.fork = fork

    def _start(self):
        helper = self.fork and self.fork(self.module, self.env, ROOT)
        return helper or super()._start()

    def run(self, *args):
        """`manage.py *args`: its standard output; CalledProcessError if it fails (its
        errors went to this process's standard error, as a subprocess's would)."""
        with self.lock, tempfile.NamedTemporaryFile("r", prefix="halfmoon-manage-") as out:
            status = self._ask({"args": list(args), "out": out.name})["status"]
            output = out.read()
        if status != 0:
            raise subprocess.CalledProcessError(status, ["manage.py", *args], output=output)
        return output


_running = {}
_running_lock = threading.Lock()


def for_environment(env, fork=None):
    """The one `Commands` of this process for `env` (its variables, not its identity);
    `fork` applies to the one made here."""
    key = frozenset(env.items())
    with _running_lock:
        if key not in _running:
            _running[key] = Commands(dict(env), fork)
        return _running[key]


@atexit.register
def close_all():
    """Every environment's set-up process ended (started again if asked)."""
    for commands in list(_running.values()):
        commands.close()


def serve():
    """The set-up process: Django once, then a child a request, one at a time."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS_MODULE)
    import django

    django.setup()
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        if threading.active_count() != 1:  # a fork keeps only the forking thread
            raise RuntimeError(f"a thread runs in the commands' process: {threading.enumerate()}")
        answers.flush()
        pid = os.fork()
        if pid == 0:
            _child(request["args"], request["out"])
        _, status = os.waitpid(pid, 0)
        answers.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")
        answers.flush()


def _child(args, out):
    """Run one command as `manage.py` would, then exit with its status; never returns."""

    def command():
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # the requests are the parent's
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the process's until it exits
        os.dup2(os.open(out, os.O_WRONLY | os.O_TRUNC), 1)
        from django.core.management import execute_from_command_line

        sys.argv = ["manage.py", *args]
        execute_from_command_line(sys.argv)

    run_as_a_process(command)


def run_as_a_process(main):
    """Run `main()` in a forked child as a process runs its program: its status 0, what
    it gave `sys.exit`, or 1 with the traceback on standard error; then what the
    interpreter's exit runs, in its order, and the end of the child. Never returns."""
    status = 1
    try:
        main()
        status = 0
    except SystemExit as exit:
        status = exit_status(exit.code)
    except BaseException:  # noqa: BLE001 - reported as a process would, then its status
        traceback.print_exc()
    finally:
        try:
            threading._shutdown()  # waits for the threads that are not daemons
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def exit_status(code):
    """sys.exit's argument as a process's status: None 0, a number itself, else 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    serve()
