"""
Which games have a time limit: a race does (it ends for everyone), a solo game and a
ghost race never run out, and a daily attempt only once its day is over (its code and
the winners' replays are public then). Games created before the change follow the
new rule: the migration times none of them out.
"""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps

from game.base import days
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal, Deal, Entry, Race
from game.race import actions
from tests.support.server import WIN, racing_alone, rule_book_race

pytestmark = pytest.mark.django_db
KEY = "k" * 32
MIGRATION = importlib.import_module("game.migrations.0009_untimed_games")


def started(mode, **fields):
    """A game of `mode` played alone, started by its player's socket."""
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), KEY, mode=mode, name="Ada", **fields)
    actions.connect(race.room, KEY, "test-socket")
    race.refresh_from_db()
    return race


def hours_later(race, hours=3):
    """`race` as if it had started `hours` ago (its limit, if any, kept)."""
    Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(hours=hours))


@pytest.mark.parametrize("mode", [Race.SOLO, Race.GHOST])
def test_a_solo_game_or_a_ghost_race_never_runs_out_of_time(mode):
    race = started(mode)
    state = actions.sync(race.room, KEY).reply[0]
    assert (state["race"]["time_limit_s"], state["race"]["ends_at"]) == (None, None)
    hours_later(race)
    assert actions.tick(race.room).broadcast == []
    out = actions.move(race.room, KEY, 1, WIN[0])
    assert out.reply[0]["type"] == "moved"
    assert Entry.objects.get().status == Entry.PLAYING


def test_a_race_still_runs_out_of_time():
    race = racing_alone(KEY)
    assert race.time_limit_s == 900
    Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(minutes=16))
    assert [f["type"] for f in actions.tick(race.room).broadcast] == ["finished"]
    assert Entry.objects.get().status == Entry.TIMED_OUT


def test_a_daily_attempt_has_its_whole_day_and_the_race_limit_after_it():
    today = DailyDeal.objects.create(date=days.today(), deal=Deal.for_code(RULE_BOOK_DEAL))
    race = started(Race.DAILY, daily_date=today.date)
    deadline = days.end_of(today.date) + timedelta(seconds=900)
    assert abs((race.ends_at - deadline).total_seconds()) <= 1
    assert actions.tick(race.room).broadcast == []


def test_a_daily_attempt_begun_after_its_day_gets_the_race_limit_then_runs_out():
    yesterday = days.today() - timedelta(days=1)
    DailyDeal.objects.create(date=yesterday, deal=Deal.for_code(RULE_BOOK_DEAL))
    race = started(Race.DAILY, daily_date=yesterday)
    assert race.time_limit_s == 900
    Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(minutes=16))
    assert [f["type"] for f in actions.tick(race.room).broadcast] == ["finished"]
    assert Entry.objects.get().status == Entry.TIMED_OUT


def test_the_migration_times_out_no_game_created_before_the_change():
    """Rows from before: every game had 900 s. A solo game past them plays on after
    the migration; a finished one keeps the limit it was played with; a race keeps its."""
    solo = started(Race.SOLO)
    done = rule_book_race("d" * 32, mode=Race.SOLO, name="Bob")
    racing = rule_book_race("r" * 32, name="Cleo")
    Race.objects.update(time_limit_s=900)
    Race.objects.filter(pk=done.pk).update(status=Race.FINISHED)
    hours_later(solo)
    MIGRATION.untime_games_in_play(apps, None)
    limits = dict(Race.objects.values_list("room", "time_limit_s"))
    assert limits == {solo.room: None, done.room: 900, racing.room: 900}
    assert actions.tick(solo.room).broadcast == []
    assert actions.move(solo.room, KEY, 1, WIN[0]).reply[0]["type"] == "moved"


def test_the_migration_gives_a_running_daily_attempt_its_day():
    today = DailyDeal.objects.create(date=days.today(), deal=Deal.for_code(RULE_BOOK_DEAL))
    race = started(Race.DAILY, daily_date=today.date)
    Race.objects.filter(pk=race.pk).update(time_limit_s=900)
    MIGRATION.untime_games_in_play(apps, None)
    race.refresh_from_db()
    deadline = days.end_of(today.date) + timedelta(seconds=900)
    assert abs((race.ends_at - deadline).total_seconds()) <= 1
