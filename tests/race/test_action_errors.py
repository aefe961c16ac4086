"""
A database error in the middle of a race action leaves no transaction open on the
thread that ran it: the next action on that thread works as soon as the database
does. (A `with` block never exits what its `__enter__` raised from: an error during
the clock's queries once left the database thread's atomic block open, and every
later socket of that process was refused 4503 until it restarted.)
"""

import pytest
from django.db import OperationalError, connection

from game.race import actions, clock
from tests.support.server import rule_book_race

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_error_while_the_clock_advances_leaves_no_transaction_open(monkeypatch):
    race = rule_book_race("host".ljust(32, "k"))
    real = clock.advance

    def blip(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(clock, "advance", blip)
    with pytest.raises(OperationalError):
        actions.tick(race.room)
    assert not connection.in_atomic_block
    monkeypatch.setattr(clock, "advance", real)
    assert actions.tick(race.room).broadcast == []  # the database answers this thread again
