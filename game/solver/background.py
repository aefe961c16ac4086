"""
A deal analysed off the request path, its progress visible to staff.

Staff save a custom deal (or schedule a deal no one analysed yet) and the page
answers at once: the solve runs in the solver pool (game/solver/pool.py) and a
thread of this process waits for it and stores the verdict, so the request
never waits on the solver. While it runs the row carries `analysing_since`,
which every process reads from the database: the deal's admin page shows
"analysing…" from any replica and reloads itself until the verdict is there.
A process that dies mid-analysis leaves the mark behind; after `STALE` it
reads as interrupted, and staff start the analysis again.
"""

import datetime
import logging
import threading

from django.db import connections, transaction
from django.utils import timezone

from game.models import Deal
from game.solver import pool
from game.solver.verdicts import analyse_job, store

logger = logging.getLogger(__name__)

SECONDS = 5.0
"""CPU seconds of search for a deal staff chose: more than the daily pick's budget (a
hand-made layout may be hard), little enough not to hold the one worker for long."""

STALE = datetime.timedelta(minutes=10)
"""Longer than any analysis takes: a mark this old belongs to a process that died."""

ANALYSING, INTERRUPTED, NOT_ANALYSED, ANALYSED = "analysing", "interrupted", "none", "done"


def thread_name(deal):
    """The storing thread's name, so a log (or a test) can tell which deal it waits on."""
    return f"analyse {deal.code}"


def start(deal):
    """Analyse `deal` in the solver pool; a thread stores the answer when it comes.
    Call it once the row is committed (`transaction.on_commit`)."""
    Deal.objects.filter(pk=deal.pk).update(analysing_since=timezone.now())
    job = (deal.code, deal.custom_layout(), SECONDS)
    future = pool.submit(("analyse", deal.code, SECONDS), analyse_job, job)
    thread = threading.Thread(
        target=_store_when_done, args=(deal.pk, future), name=thread_name(deal), daemon=True
    )
    thread.start()
    return thread


def _store_when_done(pk, future):
    try:
        _, fields = future.result()
        with transaction.atomic():
            deal = Deal.objects.select_for_update().get(pk=pk)
            store(deal, fields)
            Deal.objects.filter(pk=pk).update(analysing_since=None)
    except Exception:
        logger.exception("analysing deal %s failed", pk)
        Deal.objects.filter(pk=pk).update(analysing_since=None)
    finally:
        connections.close_all()  # this thread's own connections only


def state(deal, now=None):
    """Where a deal's analysis stands: ANALYSING, INTERRUPTED, NOT_ANALYSED or ANALYSED
    (an analysis stored since the mark, by any means, ends it)."""
    since = deal.analysing_since
    if since is not None and (deal.analyzed_at is None or deal.analyzed_at < since):
        stale = (now or timezone.now()) - since > STALE
        return INTERRUPTED if stale else ANALYSING
    return NOT_ANALYSED if deal.verdict is None else ANALYSED
