"""Who is still in a race, decided from presence marks (game/race/attendance.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from game.base import presence
from game.models import Entry, Race
from game.race import actions, attendance
from game.results.standings import standings
from tests.support.server import rule_book_race

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_presence(settings):
    settings.REDIS_URL = ""  # this process's own marks
    settings.HALFMOON_ABANDON_S = 30


def race_of(*names, mode=Race.RACE, status=Race.RUNNING):
    race = rule_book_race("host" + "h" * 28, mode=mode)
    entries = [actions.add_entry(race, f"{name:x<32}", name, connected=True) for name in names]
    race.host_key = entries[0].player_key
    started = timezone.now() - timedelta(minutes=5)
    Race.objects.filter(pk=race.pk).update(
        status=status, started_at=started, host_key=race.host_key
    )
    race.refresh_from_db()
    return race, entries


def marks(*pairs):
    return {entry.pk: moment.timestamp() for entry, moment in pairs}


def test_a_player_whose_last_mark_ran_out_is_gone_since_it_ran_out():
    race, (ada, bob) = race_of("Ada", "Bob")
    now = timezone.now()
    ran_out = now - timedelta(seconds=5)
    found = attendance.review(
        race, [ada, bob], marks((ada, now + timedelta(seconds=9)), (bob, ran_out)), now
    )
    assert [(e.name, change, round(when.timestamp())) for e, change, when in found.changes] == [
        ("Bob", attendance.GONE, round(ran_out.timestamp()))
    ]


def test_a_racer_away_past_the_grace_period_is_counted_out_when_it_ran_out():
    race, (ada, bob) = race_of("Ada", "Bob")
    now = timezone.now()
    Entry.objects.filter(pk=bob.pk).update(connected=False, left_at=now - timedelta(seconds=40))
    bob.refresh_from_db()
    found = attendance.review(race, [ada, bob], marks((ada, now + timedelta(seconds=9))), now)
    assert [(e.name, change) for e, change, _ in found.changes] == [("Bob", attendance.ABANDONED)]
    assert found.changes[0][2] == bob.left_at + timedelta(seconds=30)


def test_a_racer_back_within_the_grace_period_plays_on():
    race, (ada, bob) = race_of("Ada", "Bob")
    now = timezone.now()
    Entry.objects.filter(pk=bob.pk).update(connected=False, left_at=now - timedelta(seconds=20))
    bob.refresh_from_db()
    live = now + timedelta(seconds=9)
    found = attendance.review(race, [ada, bob], marks((ada, live), (bob, live)), now)
    assert [(e.name, change) for e, change, _ in found.changes] == [("Bob", attendance.BACK)]


def test_a_solo_game_left_alone_is_never_counted_out_it_runs_to_its_time_limit():
    race, (ada,) = race_of("Ada", mode=Race.SOLO)
    now = timezone.now()
    Entry.objects.filter(pk=ada.pk).update(connected=False, left_at=now - timedelta(minutes=4))
    ada.refresh_from_db()
    assert attendance.review(race, [ada], {}, now).changes == []


def test_a_host_gone_from_the_lobby_hands_over_to_the_longest_waiting_player():
    race, (ada, bob, cleo) = race_of("Ada", "Bob", "Cleo", status=Race.LOBBY)
    now = timezone.now()
    Entry.objects.filter(pk=ada.pk).update(connected=False, left_at=now - timedelta(seconds=31))
    ada.refresh_from_db()
    live = now + timedelta(seconds=9)
    found = attendance.review(race, [ada, bob, cleo], marks((bob, live), (cleo, live)), now)
    assert found.new_host == bob


def test_a_host_away_for_less_than_the_grace_period_stays_host():
    race, (ada, bob) = race_of("Ada", "Bob", status=Race.LOBBY)
    now = timezone.now()
    Entry.objects.filter(pk=ada.pk).update(connected=False, left_at=now - timedelta(seconds=10))
    ada.refresh_from_db()
    found = attendance.review(race, [ada, bob], marks((bob, now + timedelta(seconds=9))), now)
    assert found.new_host is None


def test_counting_out_the_last_racer_finishes_the_race_with_the_leaver_last():
    race, (ada, bob) = race_of("Ada", "Bob")
    now = timezone.now()
    Entry.objects.filter(pk=ada.pk).update(status=Entry.RESIGNED, finished_at=now, score=0)
    Entry.objects.filter(pk=bob.pk).update(
        status=Entry.PLAYING, connected=False, left_at=now - timedelta(seconds=45), score=25
    )
    presence.refresh([(race.room, ada.pk, "ada-socket")])
    out = actions.tick(race.room)
    kinds = [frame["type"] for frame in out.broadcast]
    assert kinds[-1] == "finished" and "progress" in kinds
    ranking = [(s["name"], s["status"]) for s in out.broadcast[-1]["standings"]]
    assert ranking == [("Ada", "resigned"), ("Bob", "abandoned")]


def test_a_player_counted_out_ranks_after_everyone_who_stayed():
    race, (ada, bob) = race_of("Ada", "Bob")
    Entry.objects.filter(pk=ada.pk).update(status=Entry.ABANDONED, score=100)
    Entry.objects.filter(pk=bob.pk).update(status=Entry.TIMED_OUT, score=10)
    ranking = standings([Entry.objects.get(pk=ada.pk), Entry.objects.get(pk=bob.pk)])
    assert [s["name"] for s in ranking] == ["Bob", "Ada"]
