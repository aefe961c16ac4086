"""
A day's board read by SQL written once (game/daily/day_board.py, through
game/base/sql.py) reads what the ORM reads, ranks as the ORM compares, and finishes
the attempts whose time ran out, on the database the suite runs on: PostgreSQL, or
SQLite (the browser tests' server; DATABASE_URL and TEST_DATABASE_URL empty), which
returns what an expression computes as text and a timestamp as a naive one unless
they are converted, and compares timestamps as text.
"""

import datetime

import pytest
from django.utils import timezone

from game.daily import attempts, day_board
from game.deals import daily
from game.lobby import alone
from game.models import Account, Entry, Race
from tests.race.test_fair_play import A_DAY, daily_result

pytestmark = pytest.mark.django_db
DAY = A_DAY - datetime.timedelta(days=1)


def as_read(entry):
    """`entry` as the board's statement should read it (`day_board.Result`): a
    row's end and its race's start and end only where its time is not stored."""
    untimed = (lambda value: value) if entry.time_ms is None else (lambda value: None)
    race = entry.race
    values = {name: getattr(entry, name) for name in day_board.Result._fields[:14]}
    values.update(finished_at=untimed(entry.finished_at))
    values.update(name_hidden=entry.user.account.name_hidden)
    race_values = {name: getattr(race, name) for name in day_board.Race._fields[:9]}
    race_values.update(started_at=untimed(race.started_at), finished_at=untimed(race.finished_at))
    board_race = day_board.Race(**race_values, deal=daily.DealCode(race.deal.code))
    return day_board.Result(**values, race=board_race)


def test_a_boards_rows_hold_the_values_and_types_the_orm_reads():
    daily_result(DAY, "ada", ms=50_000)
    daily_result(DAY, "bob", status=Entry.RESIGNED)
    start = timezone.now() - datetime.timedelta(minutes=5)
    ended = start + datetime.timedelta(seconds=200, microseconds=1)
    Race.objects.filter(entries__name="bob").update(started_at=start, finished_at=timezone.now())
    Entry.objects.filter(name="bob").update(time_ms=None, finished_at=ended)  # a time read
    Account.objects.filter(user__username="bob").update(name_hidden=True)
    board = day_board.daily_board(daily.board_day(DAY), player_key="")
    results = [result for _, result in day_board.page_of(DAY, 1)[0]]
    entries = Entry.objects.select_related("race__deal", "user__account").order_by("name")
    # repr: True is not 1, a date not its text, an aware time not a naive one
    assert [repr(result) for result in results] == [repr(as_read(e)) for e in entries]
    lines = [(line["name"], line["time_ms"]) for line in board["entries"]]
    assert lines == [("ada", 50_000), ("Name hidden", 200_000)]


@pytest.mark.parametrize("status", [Entry.WON, Entry.RESIGNED])
@pytest.mark.parametrize("microsecond", [0, 123_456])
def test_results_tied_but_for_their_id_rank_by_it(status, microsecond):
    for name in ("ada", "bob"):
        daily_result(DAY, name, status=status)
    at = datetime.datetime(2025, 3, 14, 12, 0, 0, microsecond, tzinfo=datetime.UTC)
    Entry.objects.update(finished_at=at)  # the same end to the microsecond
    ada, bob = Entry.objects.order_by("id")
    assert (day_board.rank_of(ada), day_board.rank_of(bob)) == (1, 2)
    rows, _ = day_board.page_of(DAY, 1)
    assert [(rank, result.id) for rank, result in rows] == [(1, ada.pk), (2, bob.pk)]


def test_an_attempt_is_finished_once_its_time_ran_out_and_not_before(todays_deal):
    started = timezone.now() - datetime.timedelta(seconds=61)
    for key, limit_s in (("a" * 32, 60), ("b" * 32, 120)):  # ran out a second ago; in 59 s
        race = alone.daily_race(todays_deal, key, "Ada")
        Race.objects.filter(pk=race.pk).update(
            status=Race.RUNNING, started_at=started, time_limit_s=limit_s
        )
        Entry.objects.filter(race=race).update(status=Entry.PLAYING)
    attempts.finish_expired(todays_deal)
    statuses = Entry.objects.order_by("player_key").values_list("status", "race__status")
    assert list(statuses) == [(Entry.TIMED_OUT, Race.FINISHED), (Entry.PLAYING, Race.RUNNING)]
