"""A game's moves are rows while it is played and one packed value once it is over
(game/results/move_log.py, docs/storage.md): every reader sees the same rows either way."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from game.models import Entry, Move, Race
from game.race import actions
from game.results import move_log
from game.results.standings import since_start
from tests.support.server import WIN, racing_alone, rule_book_race

pytestmark = pytest.mark.django_db


def solo(key):
    race = rule_book_race(key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    return race


def played(entry):
    """The entry's rows as every reader gets them, times in ms since the start."""
    race = Race.objects.get(pk=entry.race_id)
    return [(r.seq, r.kind, r.slots, since_start(race, r.at)) for r in move_log.rows(entry)]


def test_a_won_game_is_packed_as_it_ends_and_reads_as_its_rows_did():
    key = "k" * 32
    race = solo(key)
    for seq, slots in enumerate(WIN[:3], start=1):
        actions.move(race.room, key, seq, slots)
    actions.undo(race.room, key, 4)
    entry = Entry.objects.get()
    for seq, slots in enumerate(WIN[2:-1], start=5):
        actions.move(race.room, key, seq, slots)
    while_playing = played(entry)
    assert Move.objects.count() == len(while_playing) == len(WIN) + 1
    actions.move(race.room, key, len(WIN) + 2, WIN[-1])
    entry = Entry.objects.get()
    assert entry.status == Entry.WON and not Move.objects.exists()
    assert played(entry)[:-1] == while_playing
    assert played(entry)[3][1:3] == ("undo", WIN[2])
    assert len(entry.packed_moves) <= 150


def test_a_retried_move_of_a_finished_game_gets_its_first_answer():
    key = "k" * 32
    race = solo(key)
    for seq, slots in enumerate(WIN, start=1):
        first = actions.move(race.room, key, seq, slots).reply[0]
    assert Entry.objects.get().packed_moves is not None
    again = actions.move(race.room, key, len(WIN), WIN[-1]).reply[0]
    assert again == {field: value for field, value in first.items() if field != "event"}
    other = actions.move(race.room, key, len(WIN), WIN[-2]).reply[0]
    assert (other["type"], other["code"]) == ("rejected", "bad_seq")


def test_a_resigned_game_is_packed_as_it_is_given_up():
    key = "k" * 32
    race = solo(key)
    for seq, slots in enumerate(WIN[:5], start=1):
        actions.move(race.room, key, seq, slots)
    actions.resign(race.room, key)
    entry = Entry.objects.get()
    assert entry.packed_moves is not None and not Move.objects.exists()
    assert [(row.seq, row.slots) for row in move_log.rows(entry)] == list(
        enumerate(WIN[:5], start=1)
    )


def test_a_race_whose_time_runs_out_packs_its_games():
    key = "k" * 32
    race = racing_alone(key)
    for seq, slots in enumerate(WIN[:5], start=1):
        actions.move(race.room, key, seq, slots)
    Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(days=1))
    actions.tick(race.room)
    entry = Entry.objects.get()
    assert entry.status == Entry.TIMED_OUT and entry.packed_moves is not None
    assert not Move.objects.exists() and len(move_log.rows(entry)) == 5


def test_the_daily_job_finishes_a_race_out_of_time_nobody_saw_and_packs_it():
    key = "k" * 32
    race = racing_alone(key)
    for seq, slots in enumerate(WIN[:5], start=1):
        actions.move(race.room, key, seq, slots)
    Race.objects.filter(pk=race.pk).update(started_at=race.started_at - timedelta(days=1))
    out = StringIO()
    call_command("pack_moves", stdout=out)
    assert "1 races out of time finished" in out.getvalue()
    entry = Entry.objects.get()
    assert (entry.status, entry.race.status) == (Entry.TIMED_OUT, Race.FINISHED)
    assert entry.packed_moves is not None and len(move_log.rows(entry)) == 5
