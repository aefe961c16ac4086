"""
The quick-race queue under concurrent polls: many players polling at once, each
on its own database connection (as on several server processes), never
deadlock and never fail; everyone is placed exactly once.
"""

import threading

import pytest
from django.db import connection

from game.lobby import quick

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PLAYERS, POLLS = 6, 10


def poll_repeatedly(key, barrier, answers, failures):
    try:
        for _ in range(POLLS):
            barrier.wait()
            try:
                answers.append((key, quick.poll(key, key[:6])))
            except Exception as exc:  # noqa: BLE001 - every failure is what the test counts
                failures.append(repr(exc))
    finally:
        connection.close()


def test_concurrent_polls_on_separate_connections_never_fail(settings, todays_deal):
    settings.HALFMOON_QUICK_WAIT_S = settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    # Nobody opens the races here: a countdown that ended before a placed player's next
    # poll (a slow machine's rounds) would call the race off and keep them out as a
    # no-show, which is right, but not what this test is about.
    settings.HALFMOON_QUICK_SHOW_S = 600
    barrier = threading.Barrier(PLAYERS)
    answers, failures = [], []
    keys = [f"{n:02d}".ljust(32, "q") for n in range(PLAYERS)]
    threads = [
        threading.Thread(target=poll_repeatedly, args=(key, barrier, answers, failures))
        for key in keys
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(answers) == PLAYERS * POLLS
    placed = {key for key, answer in answers if "room" in answer}
    assert placed == set(keys)
