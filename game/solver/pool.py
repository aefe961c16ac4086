"""
The solver, off the web process: a small pool of worker processes per server
process, one job per question, answers kept.

A solve takes up to seconds of CPU. Run inside a request it took the server
process's CPU from the players' moves (eight parallel "was it winnable?"
requests pushed other players' moves to 2 s). Here it runs in at most
`HALFMOON_SOLVER_PROCESSES` workers (default 1), started by a forkserver (never a
fork of a process with threads and open sockets) and given pure work only —
functions of `game/solver/verdicts.py`, which imports no model and touches no database; the
caller stores what comes back. Asking the same question while its job runs
returns the same future, so a burst of requests costs one solve, and the last
`KEPT` answers are kept, so polling is free. The workers and their forkserver
die with the server, even a server killed with SIGKILL (game/solver/tether.py).
"""

import multiprocessing
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor

from django.conf import settings

from game.solver import tether

KEPT = 1024
_lock = threading.Lock()
_jobs = OrderedDict()
_executor = None


def submit(key, function, *args):
    """The future of `function(*args)` run in a worker; the same one for the same `key`.

    A job that failed is forgotten, so asking again starts it again."""
    global _executor
    with _lock:
        future = _jobs.get(key)
        if future is not None and not (future.done() and future.exception() is not None):
            _jobs.move_to_end(key)
            return future
        try:
            future = _pool().submit(function, *args)
        except RuntimeError:  # the pool broke (a worker died): start a new one
            _executor = None
            future = _pool().submit(function, *args)
        _jobs[key] = future
        while len(_jobs) > KEPT:
            _jobs.popitem(last=False)
        return future


def _pool():
    global _executor
    if _executor is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["game.solver.forkserver"])  # before it starts
        _executor = ProcessPoolExecutor(
            max_workers=settings.HALFMOON_SOLVER_PROCESSES,
            mp_context=context,
            initializer=tether.die_with_parent,
        )
    return _executor
