"""Replays: the stored moves rebuild the game exactly, and only who may watch it does."""

import datetime
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from game.base import days
from game.deals import daily
from game.engine import Deal, Game, format_code
from game.engine.deals import MAX_NUMBER
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import Deal as DealRow
from game.models import Entry, Race
from game.race import actions
from game.replays import watch
from tests.support.server import WIN, as_committed, new_session, racing_alone, rule_book_race

pytestmark = pytest.mark.django_db

STORED = ("score", "status", "moves", "cards_left", "heights")
UNDO = 0
"""A generated choice that is a multiple of 7 asks for an undo (when there is one)."""


def solo_game(deal_row, key):
    race = actions.create_race(deal_row, key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    return race


def play(room, key, deal, choices):
    """Legal moves and undos picked by `choices`, through `races` as a socket would."""
    game, seq = Game(deal), 0
    for choice in choices:
        if game.status == "won":
            break
        moves = game.legal_moves()
        if (choice % 7 == UNDO or not moves) and game.history:
            game.undo()
            seq += 1
            reply = actions.undo(room, key, seq).reply[0]
        elif moves:
            move = moves[choice % len(moves)]
            game.remove(move)
            seq += 1
            reply = actions.move(room, key, seq, list(move)).reply[0]
        else:
            break
        assert reply["type"] == "moved", reply
    return game


def end(race, key, how):
    """End a game still in play: resigned, or its time ran out (noticed later)."""
    if how == "resign":
        actions.resign(race.room, key)
    else:
        late = timezone.now() - timedelta(seconds=race.time_limit_s + 1)
        Race.objects.filter(pk=race.pk).update(started_at=late)
        actions.tick(race.room)


def final_step(entry, viewer):
    entry = Entry.objects.select_related("race__deal").get(pk=entry.pk)
    return watch.replay(entry.race, entry, viewer)["steps"][-1]


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=0, max_value=MAX_NUMBER),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
    st.sampled_from(["resign", "time_out"]),
)
def test_a_replay_reaches_the_stored_final_score_status_moves_and_heights(number, choices, how):
    _, key = new_session()
    deal_row = DealRow.for_code(format_code(number))
    # Only a race runs out of time: a solo game has no limit.
    race = solo_game(deal_row, key) if how == "resign" else racing_alone(key, deal_row)
    game = play(race.room, key, Deal.from_code(deal_row.code), choices)
    if game.status != "won":
        end(race, key, how)
    entry = Entry.objects.get(race=race)
    assert entry.done
    last = final_step(entry, key)
    assert {field: last[field] for field in STORED} == {
        field: getattr(entry, field) for field in STORED
    }


def test_the_rule_books_win_replays_to_520_in_48_moves_with_every_table_on_the_way():
    _, key = new_session()
    race = rule_book_race(key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    for seq, move in enumerate(WIN, start=1):
        as_committed(actions.move, race.room, key, seq, move)
    entry = Entry.objects.get(race=race)
    steps = watch.replay(Race.objects.get(pk=race.pk), entry, key)["steps"]
    assert len(steps) == 49 and steps[0]["kind"] == "deal" and steps[-1]["score"] == 520
    assert steps[-1]["status"] == "won" and steps[-1]["cards_left"] == 0
    assert {view["slot"]: view["top"] for view in steps[0]["slots"]}["P1"] == "5S"
    assert steps[1]["changed"] == WIN[0] and steps[1]["at_ms"] >= 0


def test_a_replay_of_a_game_still_in_play_is_refused():
    _, key = new_session()
    race = rule_book_race(key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    actions.move(race.room, key, 1, WIN[0])
    entry = Entry.objects.get(race=race)
    assert not watch.visible(Race.objects.get(pk=race.pk), entry, key)
    client = Client()
    answer = client.get(f"/api/replays/{race.room}/{entry.pk}/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    page = client.get(f"/replay/{race.room.lower()}/{entry.pk}/")
    assert page.status_code == 404
    assert "can be watched once it is over" in page.content.decode()


def test_a_daily_replay_is_the_players_at_once_and_everyones_after_the_day(monkeypatch):
    _, key = new_session()
    _, stranger = new_session()
    rule_book = DealRow.for_code(RULE_BOOK_DEAL)  # a guest's attempt: the guests' deal
    day = daily.DailyDeal.objects.create(
        date=days.today(), deal=DealRow.for_code("HM1-N-AAAAAAC"), guest_deal=rule_book
    )
    race = alone.daily_race(day, key, "Ada")
    actions.connect(race.room, key, "test-socket")
    actions.move(race.room, key, 1, WIN[0])
    actions.resign(race.room, key)
    race, entry = Race.objects.get(pk=race.pk), Entry.objects.get(race=race)
    assert watch.visible(race, entry, key)
    assert not watch.visible(race, entry, stranger)
    tomorrow = day.date + datetime.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)
    assert watch.visible(race, entry, stranger)


def test_a_race_replay_waits_for_the_race_to_finish_and_shows_every_player_without_a_card():
    _, ada = new_session()
    _, bob = new_session()
    _, stranger = new_session()
    race = rule_book_race(ada, name="Ada")
    actions.connect(race.room, ada, "socket-a")
    actions.join(race.room, bob, "Bob", "socket-b")
    actions.start(race.room, ada)
    Race.objects.filter(pk=race.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    actions.tick(race.room)
    actions.move(race.room, ada, 1, WIN[0])
    actions.resign(race.room, ada)
    entry = Entry.objects.get(race=race, player_key=ada)
    race = Race.objects.get(pk=race.pk)
    assert watch.visible(race, entry, ada) and not watch.visible(race, entry, stranger)
    actions.resign(race.room, bob)
    race = Race.objects.get(pk=race.pk)
    assert race.status == Race.FINISHED and watch.visible(race, entry, stranger)
    watched = watch.replay(race, entry, stranger)
    assert [player["name"] for player in watched["players"]] == ["Ada", "Bob"]
    assert all(player["url"] for player in watched["players"])
    text = json.dumps(watched["players"])
    assert '"slots"' not in text and '"top"' not in text
    ada_line = next(p for p in watched["players"] if p["name"] == "Ada")["steps"]
    assert [step["kind"] for step in ada_line] == ["deal", "move", "end"]
    assert ada_line[-1]["status"] == "resigned" and ada_line[-1]["score"] == 10


def test_the_replay_page_carries_the_replay_and_the_api_serves_the_same():
    _, key = new_session()
    race = rule_book_race(key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    actions.move(race.room, key, 1, WIN[0])
    actions.resign(race.room, key)
    entry = Entry.objects.get(race=race)
    client = Client()
    page = client.get(f"/replay/{race.room}/{entry.pk}/")
    assert page.status_code == 200 and b'id="replay-data"' in page.content
    answer = client.get(f"/api/replays/{race.room}/{entry.pk}/").json()
    assert answer["player"]["status"] == "resigned" and len(answer["steps"]) == 3
    assert client.get(f"/api/replays/{race.room}/{entry.pk + 999}/").status_code == 404


def test_the_replay_page_speaks_the_players_language():
    _, key = new_session()
    race = rule_book_race(key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    actions.resign(race.room, key)
    entry = Entry.objects.get(race=race)
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/replay/{race.room}/{entry.pk}/")
    assert "Rediffusion de Ada" in page.content.decode()
    refused = Client(HTTP_ACCEPT_LANGUAGE="ca").get(f"/replay/{race.room}/{entry.pk + 1}/")
    assert refused.status_code == 404 and "No hi ha cap repetició" in refused.content.decode()


def test_a_leaderboard_links_a_past_days_replay_on_its_players_row():
    session_key, key = new_session()
    yesterday = days.today() - datetime.timedelta(days=1)
    day = daily.DailyDeal.objects.create(
        date=yesterday,
        deal=DealRow.for_code(RULE_BOOK_DEAL),
        guest_deal=DealRow.for_code("HM1-N-AAAAAAG"),
    )
    race = alone.daily_race(day, key, "Ada")
    actions.connect(race.room, key, "test-socket")
    actions.resign(race.room, key)
    entry = Entry.objects.get(race=race)
    client = Client()
    client.cookies["sessionid"] = session_key  # a guest: not ranked, but shown their own row
    page = client.get(f"/daily/{yesterday.isoformat()}/")
    assert f'href="/replay/{race.room}/{entry.pk}/"' in page.content.decode()
