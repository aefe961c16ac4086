"""
A running event's page shows standings made once a second per process
(game/events/shared_standings.py): the second reader within that second ranks nobody,
a new result is on the page once they are a second old, and each event keeps its own.
(How long and how many: tests/base/test_kept.py.)
"""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game.events import play, shared_standings
from game.race import actions
from tests.events.test_events import joined, running_event

pytestmark = pytest.mark.django_db
RANKING = "FROM game_evententry"
"""What the ranking's statement reads (standings._RANKING), and no other of the page."""


def page(event):
    with CaptureQueriesContext(connection) as queries:
        answer = Client().get(f"/events/{event.pk}/")
    names = [row[2] for row in answer.context["rows"]]
    return names, [query["sql"] for query in queries if RANKING in query["sql"]]


def moved(event, key):
    race = play.game_to_play(event, key)
    actions.connect(race.room, key, "socket")
    actions.move(race.room, key, 1, ["P1", "P8"])


def test_the_second_reader_within_a_second_ranks_nobody_and_sees_the_same_rows(clock):
    event = running_event()
    joined(event, "Ada")
    joined(event, "Bo")
    first, ranked = page(event)
    second, ranked_again = page(event)
    assert first == second and sorted(first) == ["Ada", "Bo"]
    assert len(ranked) == 1 and ranked_again == []


def test_a_new_result_is_on_the_page_once_the_standings_are_a_second_old(clock):
    event = running_event()
    joined(event, "Ada")
    _, bo = joined(event, "Bo")
    before, _ = page(event)
    moved(event, bo)
    assert page(event)[0] == before  # within the second: as they were
    clock[0] += shared_standings.AGE_S
    assert page(event)[0] == ["Bo", "Ada"]


def test_each_event_keeps_its_own_standings(clock):
    events = [running_event() for _ in range(2)]
    for n, event in enumerate(events):
        joined(event, f"Player{n}")
    assert [page(event)[0] for event in events] == [["Player0"], ["Player1"]]
