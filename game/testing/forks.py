"""
The tests' daphne processes, forked from one process that imported what each of them
imports before it reads its settings.

A daphne started as a new process spends about a CPU-second importing Twisted,
autobahn, Django, psycopg and the project before it answers, and a run of the suite
starts some ninety. Most of that does not depend on the server's environment: here
one process a test worker (`python -m game.testing.forks`) imports those modules once,
with no settings read, no reactor installed and no event loop made, then forks a child
for each server. The child takes the server's environment, working folder and log,
and runs `python -m halfmoon_site.daphne_uvloop ...` as a new process would from
there: daphne's own import installs the reactor on a new loop, and Django reads the
settings of that environment. What a fork starts from is checked before each (no
thread, no reactor, no settings), and a server whose environment would change how
Python itself starts (a PYTHON* variable other than PYTHONUNBUFFERED) gets a process
of its own.

The child is the set-up process's, not the test's: `Forked` stands in for the
`subprocess.Popen` a test would hold (pid, poll, wait, send_signal), watching the
child through a pidfd and asking the set-up process for its exit status. Requests
and answers are one JSON line each on the set-up process's standard input and output;
it ends when its standard input does, that is with the process that started it.

The `manage.py` commands' set-up processes (game/testing/commands.py, one an
environment) are forked the same way (`start_helper`): the child runs
`python -m game.testing.commands`, asked through two named pipes the test process
made, so it sets Django up without importing everything again.
"""

import atexit
import ctypes
import errno
import gc
import importlib
import io
import json
import os
import runpy
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from game.testing import commands
from game.testing.commands import Helper, run_as_a_process

LAUNCHER = "halfmoon_site.daphne_uvloop"
PRELOAD = [
    "asyncio",
    "uvloop",
    "twisted.internet.asyncioreactor",  # the module only: `install()` is daphne's
    "twisted.internet.endpoints",
    "twisted.internet.ssl",
    "twisted.internet.tcp",
    "autobahn.twisted.websocket",
    "django.core.handlers.asgi",
    "django.db.models",
    "django.forms",
    "django.template.backends.django",
    "django.urls",
    "psycopg",
    "psycopg_pool",
    "channels.generic.websocket",
    "channels.layers",
    "channels.routing",
    "channels_redis.core",
    "redis.asyncio",
    "prometheus_client",
    "msgspec",
    "orjson",
    "whitenoise.middleware",
    "dj_database_url",
    "django.contrib.admin",
    "django.contrib.sessions.backends.db",
    "django.views.generic",
    "concurrent.futures",
    "multiprocessing",
    "statistics",
]
"""What every server imports before it reads a setting: a fork's own imports then take
0.24-0.33 CPU-seconds, a new process's 0.89-1.30 (`-X importtime`, and a fork's rusage)."""
OWN_VARIABLES = "PYTHONUNBUFFERED"
"""The one variable of Python's own a fork applies itself: how its output is buffered."""


class Forked:
    """A forked daphne, as much of `subprocess.Popen` as the tests use."""

    def __init__(self, setup, args, pid):
        self.setup, self.args, self.pid = setup, args, pid
        self.returncode = None
        self.pidfd = os.pidfd_open(pid)

    def poll(self):
        """The exit status once the process has ended (-N: killed by signal N), else None."""
        if self.returncode is None and _readable(self.pidfd, 0):
            self.returncode = self.setup.ask({"reap": self.pid})["status"]
            os.close(self.pidfd)
        return self.returncode

    def wait(self, timeout=None):
        if self.returncode is None and not _readable(self.pidfd, timeout):
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.poll()

    def send_signal(self, signum):
        if self.poll() is None:
            signal.pidfd_send_signal(self.pidfd, signum)

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def kill(self):
        self.send_signal(signal.SIGKILL)


def _readable(fd, timeout):
    return bool(select.select([fd], [], [], timeout)[0])


class SetUp(Helper):
    """The set-up process of this test process, started on the first fork."""

    module = __name__
    name = "forks' set-up"

    def __init__(self):
        super().__init__(dict(os.environ))

    def start(self, args, env, cwd, log_path):
        """Fork `args` (python -m LAUNCHER ...) with `env` in `cwd`, its output appended
        to `log_path`: a `Forked`."""
        request = {"args": args[1:], "env": env, "cwd": str(cwd), "log": str(log_path)}
        return Forked(self, args, self.ask(request)["pid"])

    def ask(self, request):
        with self.lock:
            return self._ask(request)

    def serves(self, args, env):
        """Whether a fork would start as `args` with `env` would: daphne's launcher,
        with this process's own Python, and no PYTHON* variable to apply at start."""
        return args[:3] == [sys.executable, "-m", LAUNCHER] and self.starts_as(env)

    def starts_as(self, env):
        """Whether Python started with `env` would start as this process did: the same
        PYTHON* variables (but PYTHONUNBUFFERED, which a fork applies itself)."""
        own = {name for name in {*env, *self.env} if name.startswith("PYTHON")}
        return all(env.get(name) == self.env.get(name) for name in own - {OWN_VARIABLES})

    def start_helper(self, module, env, cwd):
        """Fork `python -m module` with `env` in `cwd`, its standard input and output
        named pipes this process writes and reads: a `Forked` with `stdin` and `stdout`
        as a `Popen(stdin=PIPE, stdout=PIPE, text=True)` has them."""
        folder = tempfile.mkdtemp(prefix="halfmoon-helper-")
        try:
            pipes = {name: os.path.join(folder, name) for name in ("stdin", "stdout")}
            for path in pipes.values():
                os.mkfifo(path)
            answers = os.open(pipes["stdout"], os.O_RDONLY | os.O_NONBLOCK)  # its writer's reader
            request = {"helper": module, "env": env, "cwd": str(cwd), **pipes}
            helper = Forked(self, [sys.executable, "-m", module], self.ask(request)["pid"])
            asks = _writer_once_read(pipes["stdin"], helper)
        finally:
            shutil.rmtree(folder)  # both opened by both sides by now, or the child is gone
        for fd in (asks, answers):
            os.set_blocking(fd, True)
        helper.stdin, helper.stdout = os.fdopen(asks, "w"), os.fdopen(answers)
        return helper


def _writer_once_read(path, child, timeout=30):
    """The write end of the named pipe at `path`, once `child` opened it to read."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:  # ENXIO: no reader yet
            if error.errno != errno.ENXIO or child.poll() is not None:
                raise RuntimeError(f"the helper {child.args} never read its pipe") from error
            if time.monotonic() > deadline:
                raise
        time.sleep(0.002)


_setup = SetUp()


@atexit.register
def _close():
    """The commands' processes first (reaped by the set-up process), then the set-up."""
    commands.close_all()
    _setup.close()


def start_helper(module, env, cwd):
    """`python -m module` with `env` in `cwd`, forked, asked as `commands.Helper` asks:
    a `Forked` with `stdin` and `stdout`; None if `env` would start Python otherwise."""
    return _setup.start_helper(module, env, cwd) if _setup.starts_as(env) else None


def start(args, env, cwd, log_path):
    """daphne as `subprocess.Popen(args, env=env, cwd=cwd)` with its output appended to
    `log_path` would start it: forked when it can be (a `Forked`), else a new process."""
    if _setup.serves(list(args), env):
        return _setup.start(list(args), env, cwd, log_path)
    with open(log_path, "a") as log:  # the child keeps its own copy of the handle
        return subprocess.Popen(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)


def serve():
    """The set-up process: the common imports once, then a fork a request."""
    for name in PRELOAD:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()  # a child's collections skip these objects: no time, no copied pages
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        if "reap" in request:
            _, status = os.waitpid(request["reap"], 0)
            answer = {"status": os.waitstatus_to_exitcode(status)}
        else:
            _check_blank()
            answers.flush()
            pid = os.fork()
            if pid == 0:
                (_helper if "helper" in request else _child)(request)
            answer = {"pid": pid}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _check_blank():
    """What a fork must not inherit: a thread, a reactor, Django's settings."""
    from django.conf import settings

    if threading.active_count() != 1:  # a fork keeps only the forking thread
        raise RuntimeError(f"a thread runs in the forks' process: {threading.enumerate()}")
    if "twisted.internet.reactor" in sys.modules or settings.configured:
        raise RuntimeError("the forks' process installed a reactor or read settings")


def _child(request):
    """Become the server `request` asks for, as `python -m` would run it; never returns."""

    def server():
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        _redirect(request["log"], unbuffered=bool(os.environ.get(OWN_VARIABLES)))
        sys.argv = [request["args"][1], *request["args"][2:]]
        runpy.run_module(request["args"][1], run_name="__main__", alter_sys=True)

    run_as_a_process(server)


def _helper(request):
    """Become the helper `request` asks for, reading and writing its named pipes (the
    writer first: the asker holds its reader open already); never returns."""

    def helper():
        _name_process(HELPER_NAME)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for fd, path, mode in ((1, request["stdout"], os.O_WRONLY), (0, request["stdin"], 0)):
            opened = os.open(path, mode)
            os.dup2(opened, fd)
            os.close(opened)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - the same
        sys.argv = [request["helper"]]
        runpy.run_module(request["helper"], run_name="__main__", alter_sys=True)

    run_as_a_process(helper)


HELPER_NAME = b"hm-commands"
"""What a helper's process is called (its command line stays its set-up process's):
how game/testing/process_cpu.py tells it from a server."""


def _name_process(name):
    """Set this process's name (/proc/self/comm), as `prctl(PR_SET_NAME)` does."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)


PR_SET_NAME = 15


def _redirect(log_path, unbuffered):
    """Standard input from /dev/null, output and errors appended to `log_path`, as
    `Popen(stdout=log, stderr=STDOUT)` gives a new process: output block-buffered, or
    written through with PYTHONUNBUFFERED; errors line-buffered."""
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - the process's until it exits
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.stdout = _stream(1, unbuffered, line_buffering=False, errors="strict")
    sys.stderr = _stream(2, unbuffered, line_buffering=True, errors="backslashreplace")


def _stream(fd, unbuffered, line_buffering, errors):
    raw = io.FileIO(fd, "w", closefd=False)
    return io.TextIOWrapper(
        raw if unbuffered else io.BufferedWriter(raw),
        encoding="utf-8",
        errors=errors,
        line_buffering=line_buffering,
        write_through=unbuffered,
    )


if __name__ == "__main__":
    serve()
