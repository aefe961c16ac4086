"""After the game, not before: "was it winnable?" (the rule book: no hint during play)."""

import time

import pytest

from game import hindsight, races, solving
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


def answer_of(room, key, within_s=60):
    """The answer once the solver pool has it (the first asks get None: computing)."""
    deadline = time.monotonic() + within_s
    while (answer := hindsight.hindsight(room, key)) is None:
        assert time.monotonic() < deadline, "the solver pool never answered"
        time.sleep(0.05)
    return answer


def poll_api(client, room, within_s=60):
    deadline = time.monotonic() + within_s
    while (asked := client.get(f"/api/races/{room}/hindsight/")).status_code == 202:
        assert asked.json() == {"status": "computing"}
        assert time.monotonic() < deadline, "the solver pool never answered"
        time.sleep(0.05)
    return asked


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
    answer = answer_of(room, key)
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
    answer = answer_of(room, key)
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
    answer = poll_api(client, room).json()
    assert answer["deal"] == RULE_BOOK_DEAL and answer["verdict"] == WINNABLE
    assert answer["winnable_until"] == 0 and answer["moves"] == 0


def test_the_solver_runs_in_the_pool_never_in_the_request(monkeypatch):
    _, key = new_session()
    room = solo_game(key)
    races.resign(room, key)
    asked_in = []
    real_submit = solving.submit

    def spy(job_key, function, *args):
        asked_in.append(function.__module__)
        return real_submit(job_key, function, *args)

    monkeypatch.setattr(solving, "submit", spy)
    monkeypatch.setattr("game.analysis.solve", lambda *a, **k: pytest.fail("solved in-process"))
    assert answer_of(room, key)["verdict"] == WINNABLE
    assert set(asked_in) == {"game.analysis"}


def test_asking_again_reuses_the_one_job_of_a_finished_game():
    _, key = new_session()
    room = solo_game(key)
    races.resign(room, key)
    first = answer_of(room, key)
    entry = Entry.objects.get(race__room=room)
    job = solving.submit(("hindsight", room, entry.pk), pytest.fail)
    assert job.done() and hindsight.hindsight(room, key) == first
