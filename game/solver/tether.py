"""
Solver processes die with their server, kill -9 included.

A server killed with SIGKILL runs no clean-up, and its pool's processes kept
one another alive (~82 MB left running): the worker holds the forkserver's
"alive" pipe open, so the forkserver never sees its server go, and both hold
the resource tracker's pipe. Two tethers cut the loop (Linux):

- the forkserver watches its parent, the server: a daemon thread polls
  `os.getppid()`, which changes the moment the server dies (the forkserver is
  handed to another parent, zombie server or not), and ends the forkserver;
- each worker asks the kernel for SIGKILL when its parent, the forkserver,
  dies (`prctl(PR_SET_PDEATHSIG)`, the pool's initializer). Not the server
  itself: the server spawns the forkserver from whichever thread first asks
  for a solve, and PDEATHSIG follows the parent *thread*.

The resource tracker then sees every copy of its pipe closed and exits alone.
"""

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
WATCH_S = 0.5
"""How often the forkserver looks whether its server is still its parent."""


def die_with_parent():
    """SIGKILL this process when its parent dies (the pool's worker initializer)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent died before the tether held
        os._exit(1)


def watch_parent():
    """End this process, at once and without clean-up, once its parent is gone."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(WATCH_S)
        os._exit(0)

    threading.Thread(target=watch, name="tether", daemon=True).start()
