"""races.py without sockets: the clock, the per-process cache, standings."""

import contextlib
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from game.engine import Deal, replay
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import DailyDeal, Entry, Move, Race
from game.models import Deal as DealRow
from game.race import actions
from game.results import games
from game.results.standings import standings
from tests.support.server import WIN, racing_alone, rule_book_race

pytestmark = pytest.mark.django_db


def running_solo(key="k" * 32, name="Ada"):
    race = rule_book_race(key, mode=Race.SOLO, name=name)
    actions.connect(race.room, key, "test-socket")
    return race


def test_a_race_s_entries_point_at_that_race_object_without_a_query(django_assert_num_queries):
    """Django sets each entry's race from `race.entries`: standings, frames, attendance and
    replays read `entry.race` and rely on it costing no query."""
    race = Race.objects.get(pk=running_solo().pk)
    with django_assert_num_queries(1):
        assert all(entry.race is race for entry in race.entries.all())


def test_a_move_made_through_another_process_is_seen_here():
    """The cache is tagged with the entry's seq: another process's move makes it stale."""
    key = "k" * 32
    race = running_solo(key)
    actions.move(race.room, key, 1, WIN[0])
    entry = Entry.objects.get()
    games.cache.put(entry.pk, entry.seq, replay(Deal.from_code(RULE_BOOK_DEAL), WIN[:1]))
    Move.objects.create(entry=entry, seq=2, kind="move", slots=WIN[1], at=timezone.now())
    Entry.objects.filter(pk=entry.pk).update(seq=2)
    out = actions.move(race.room, key, 3, WIN[2])
    assert out.reply[0]["type"] == "moved" and out.reply[0]["moves"] == 3


def test_a_failed_save_leaves_no_game_ahead_of_the_database(monkeypatch):
    key = "k" * 32
    race = running_solo(key)

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(Move.objects, "create", broken)
    with pytest.raises(RuntimeError):
        actions.move(race.room, key, 1, WIN[0])
    monkeypatch.undo()
    out = actions.move(race.room, key, 1, WIN[0])
    assert out.reply[0]["type"] == "moved" and out.reply[0]["moves"] == 1


def test_the_countdown_and_the_time_limit_apply_on_the_next_call_whoever_makes_it():
    key = "h" * 32
    race = rule_book_race(key, name="Ada")
    actions.connect(race.room, key, "test-socket")
    out = actions.start(race.room, key)
    assert [f["type"] for f in out.broadcast] == ["countdown"]
    Race.objects.filter(pk=race.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert [f["type"] for f in actions.tick(race.room).broadcast] == ["started"]
    assert actions.tick(race.room).broadcast == []
    race.refresh_from_db()
    Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(minutes=16))
    out = actions.move(race.room, key, 1, WIN[0])
    assert [f["type"] for f in out.broadcast] == ["finished"]
    assert out.reply[0]["code"] == "not_running"
    assert Entry.objects.get().status == Entry.TIMED_OUT
    assert actions.tick(race.room).broadcast == []


def test_broadcast_events_are_numbered_without_gaps_in_the_database():
    key = "k" * 32
    race = running_solo(key)
    numbers = []
    for seq, move in enumerate(WIN[:4], start=1):
        numbers += [f["event"] for f in actions.move(race.room, key, seq, move).broadcast]
    race.refresh_from_db()
    assert numbers == list(range(numbers[0], numbers[0] + 4)) and race.event == numbers[-1]


def test_standings_put_winners_first_by_time_then_score_moves_and_who_got_there_first():
    race = rule_book_race("h" * 32)
    start = timezone.now()
    Race.objects.filter(pk=race.pk).update(started_at=start)
    race.refresh_from_db()

    def entry(name, status, score, moves, seconds):
        at = start + timedelta(seconds=seconds)
        return Entry(
            race=race,
            pk=len(name) * 100 + seconds,
            name=name,
            status=status,
            score=score,
            moves=moves,
            last_move_at=at,
            finished_at=at if status == "won" else None,
            joined_at=start,
        )

    entries = [
        entry("late-winner", "won", 520, 48, 300),
        entry("high", "resigned", 300, 25, 100),
        entry("high-more-moves", "timed_out", 300, 27, 50),
        entry("high-later", "resigned", 300, 25, 200),
        entry("fast-winner", "won", 520, 48, 200),
    ]
    ranking = [row["name"] for row in standings(entries)]
    assert ranking == ["fast-winner", "late-winner", "high", "high-later", "high-more-moves"]
    assert standings(entries)[0]["time_ms"] == 200_000


def test_a_seat_in_a_solo_race_is_found_again_until_it_is_finished():
    deal = DealRow.for_code(RULE_BOOK_DEAL)
    first = alone.solo_race(deal, "k" * 32, "Ada")
    assert alone.solo_race(deal, "k" * 32, "Ada") == first
    Race.objects.filter(pk=first.pk).update(status=Race.FINISHED)
    assert alone.solo_race(deal, "k" * 32, "Ada") != first


def test_a_time_out_noticed_late_is_dated_when_the_time_ran_out():
    """An abandoned race finishes lazily, but its clock says when the limit passed."""
    race = racing_alone("k" * 32)
    started_at = race.started_at - timedelta(hours=3)
    Race.objects.filter(pk=race.pk).update(started_at=started_at)
    [finished] = actions.tick(race.room).broadcast
    race.refresh_from_db()
    assert race.finished_at == race.ends_at == started_at + timedelta(seconds=900)
    assert Entry.objects.get().finished_at == race.ends_at
    assert [(s["status"], s["time_ms"]) for s in finished["standings"]] == [("timed_out", 900_000)]


@pytest.mark.django_db(transaction=True)
def test_two_tabs_opening_the_daily_deal_at_once_get_one_attempt(monkeypatch):
    """Two requests (two tabs, perhaps two processes) both find no attempt yet."""
    day = DailyDeal.objects.create(
        date=timezone.now().date(),
        deal=DealRow.for_code(RULE_BOOK_DEAL),
        guest_deal=DealRow.for_code("HM1-N-AAAAAAG"),
    )
    both_looked = threading.Barrier(2)
    real_create = actions.create_race

    def create_once_both_looked(*args, **kwargs):
        # Without a lock both requests get here; with one, the other waits and this times out.
        with contextlib.suppress(threading.BrokenBarrierError):
            both_looked.wait(timeout=1)
        return real_create(*args, **kwargs)

    monkeypatch.setattr(actions, "create_race", create_once_both_looked)
    rooms = []

    def open_daily():
        try:
            rooms.append(alone.daily_race(day, "k" * 32, "Ada").room)
        finally:
            connection.close()

    tabs = [threading.Thread(target=open_daily) for _ in range(2)]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join()
    assert len(rooms) == 2 and rooms[0] == rooms[1]
    assert Race.objects.filter(mode=Race.DAILY).count() == 1


def test_a_quick_race_seated_from_the_queue_announces_its_countdown(settings, monkeypatch):
    """The countdown that seating starts is numbered, so it must also be sent."""
    from game.lobby import quick
    from game.realtime import broadcast

    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    sent = []
    monkeypatch.setattr(broadcast, "publish_outcome", lambda room, out: sent.append(out))
    quick.poll("a" * 32, "Ada")
    placed = quick.poll("b" * 32, "Bob")
    race = Race.objects.get(room=placed["room"])
    assert race.status == Race.COUNTDOWN
    assert [frame["type"] for out in sent for frame in out.broadcast] == ["countdown"]
    assert sent[0].broadcast[0]["event"] == race.event
