"""
The calendar's "Fill the coming four weeks": the coming days' automatic picks made
known without a shell (it was `manage.py analyse_deals --daily-candidates 28`).

The button's request answers at once: a thread takes game/daily/ahead.py's rounds
(the command's own) and solves each deal in the server's solver pool
(game/solver/pool.py), as a deal staff add is (game/solver/background.py), storing
each verdict as it comes. Its progress lives in the cache, which every server process
shares (Redis), so the calendar polls it from any replica (`status`). One run at a
time; a run whose process died stops reporting, and after `STALE` it reads as
interrupted and the button runs it again.
"""

import datetime
import logging
import threading

from django.core.cache import cache
from django.db import connections
from django.utils import timezone

from game.daily.ahead import DAYS, rounds
from game.solver import pool
from game.solver.verdicts import analyse_job, store

logger = logging.getLogger(__name__)

KEY, LOCK = "halfmoon:staff:fill:status", "halfmoon:staff:fill:lock"
SECONDS = 1.0
"""CPU seconds of search per candidate: the command's default."""

STALE = datetime.timedelta(minutes=10)
"""Longer than any one deal's solve: a run silent this long belongs to a dead process."""

IDLE, RUNNING, DONE, FAILED, INTERRUPTED = "idle", "running", "done", "failed", "interrupted"
THREAD = "fill the coming days"


def status(now=None):
    """The last run's progress: state, picks `settled` of `total`, deals `analysed`."""
    found = cache.get(KEY) or {"state": IDLE, "settled": 0, "total": 0, "analysed": 0}
    if found["state"] == RUNNING and (now or timezone.now()) - found["at"] > STALE:
        found = {**found, "state": INTERRUPTED}
    return found


def start():
    """Start a run over today and the next `DAYS` days unless one is running; the thread,
    or None if one was."""
    if not cache.add(LOCK, True, STALE.total_seconds()):
        return None
    _report(RUNNING, 0, 0, 0)
    thread = threading.Thread(target=_run, args=(DAYS,), name=THREAD, daemon=True)
    thread.start()
    return thread


def _run(ahead):
    settled = total = analysed = 0
    try:
        for todo, settled, total in rounds(ahead):
            _report(RUNNING, settled, total, analysed)
            for _ in _analysed(todo):
                analysed += 1
                _report(RUNNING, settled, total, analysed)
        _report(DONE, settled, total, analysed)
    except Exception:
        logger.exception("filling the coming days failed")
        _report(FAILED, settled, total, analysed)
    finally:
        cache.delete(LOCK)
        connections.close_all()  # this thread's own connections only


def _analysed(rows):
    """Solve `rows` in the pool, all queued at once; store each, yielding as it is."""
    jobs = [(row.code, row.custom_layout(), SECONDS) for row in rows]
    futures = [pool.submit(("analyse", job[0], SECONDS), analyse_job, job) for job in jobs]
    for row, future in zip(rows, futures, strict=True):
        _, fields = future.result()
        yield store(row, fields)


def _report(state, settled, total, analysed):
    progress = {"state": state, "settled": settled, "total": total, "analysed": analysed}
    cache.set(KEY, {**progress, "at": timezone.now()}, timeout=None)
