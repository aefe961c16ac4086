"""After the game, not before: "was it winnable?" (the rule book: no hint during play)."""

import pytest

from game import hindsight, races
from game.engine import Deal, Game, replay
from game.engine.examples import RULE_BOOK_DEAL
from game.engine.solver import NOT_WINNABLE, WINNABLE, solve
from game.errors import GameError
from game.models import Entry

from .conftest import WIN, new_session, rule_book_race

pytestmark = pytest.mark.django_db


def solo_game(key):
    race = rule_book_race(key, mode="solo", name="Ana")
    races.connect(race.room, key, "test-socket")
    return race.room


def play_first_moves_until_blocked(room, key):
    """Always the first legal move: on the rule book's deal this walks into a dead end."""
    game = Game(Deal.from_code(RULE_BOOK_DEAL))
    while game.legal_moves():
        move = game.legal_moves()[0]
        game.remove(move)
        races.move(room, key, game.moves, list(move))
    return game.history


def test_a_game_still_in_play_gets_no_answer():
    _, key = new_session()
    room = solo_game(key)
    races.move(room, key, 1, WIN[0])
    with pytest.raises(GameError) as refused:
        hindsight.hindsight(room, key)
    assert refused.value.code == "still_playing"


def test_only_a_player_of_the_race_may_ask():
    _, key = new_session()
    _, stranger = new_session()
    room = solo_game(key)
    with pytest.raises(GameError) as refused:
        hindsight.hindsight(room, stranger)
    assert refused.value.code == "not_a_player"


def test_a_lost_game_learns_the_last_move_that_kept_it_winnable():
    _, key = new_session()
    room = solo_game(key)
    line = play_first_moves_until_blocked(room, key)
    races.resign(room, key)
    answer = hindsight.hindsight(room, key)
    assert answer["verdict"] == WINNABLE and answer["moves"] == len(line)
    kept = answer["winnable_until"]
    deal = Deal.from_code(RULE_BOOK_DEAL)
    assert solve(replay(deal, line[:kept])).verdict == WINNABLE
    assert solve(replay(deal, line[: kept + 1])).verdict == NOT_WINNABLE


def test_a_won_game_was_winnable_all_along():
    _, key = new_session()
    room = solo_game(key)
    for seq, move in enumerate(WIN, start=1):
        races.move(room, key, seq, move)
    answer = hindsight.hindsight(room, key)
    assert (answer["verdict"], answer["winnable_until"], answer["moves"]) == (WINNABLE, 48, 48)
    assert answer["difficulty"]


def test_the_api_answers_a_finished_game_and_refuses_one_in_play(client):
    client.get("/")
    room = client.post(
        "/api/races/", {"deal": RULE_BOOK_DEAL, "solo": True}, content_type="application/json"
    ).json()["room"]
    asked = client.get(f"/api/races/{room}/hindsight/")
    assert asked.status_code == 409 and asked.json()["error"]["code"] == "still_playing"
    player = Entry.objects.get(race__room=room).player_key
    races.connect(room, player, "test-socket")
    races.resign(room, player)
    answer = client.get(f"/api/races/{room}/hindsight/").json()
    assert answer["deal"] == RULE_BOOK_DEAL and answer["verdict"] == WINNABLE
    assert answer["winnable_until"] == 0 and answer["moves"] == 0
