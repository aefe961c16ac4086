"""After-game analysis in a replay: only of finished games, the move that lost it marked
where the solver says so, one winning line, and each position solved once whoever asks."""

import datetime
import time

import pytest
from django.test import Client
from django.utils import timezone

from game.base import days
from game.base.errors import GameError
from game.engine import SLOTS, WON, Deal, replay
from game.engine.examples import RULE_BOOK_DEAL
from game.engine.solver import NOT_WINNABLE, WINNABLE, solve
from game.lobby import alone
from game.models import DailyDeal, Entry, PositionVerdict, Race
from game.models import Deal as DealRow
from game.race import actions, history
from game.replays import analysis
from game.results import games, move_log
from game.solver import claims, pool
from tests.support.engine import (
    BLOCKING_RESERVE,
    BLOCKING_TOPS,
    first_moves_until_blocked,
    layout_with_tops,
)
from tests.support.server import WIN, new_session

pytestmark = pytest.mark.django_db

BLUNDER = first_moves_until_blocked(Deal.from_code(RULE_BOOK_DEAL))
LOST_BY = 21
"""The rule book's deal played by the first legal move: move 21 loses it."""


@pytest.fixture(autouse=True)
def no_question_asked_yet():
    """No claim or answer left in the shared store, no job in this process's pool."""
    forget_questions()
    yield
    forget_questions()


def forget_questions():
    shared = claims.store()
    if isinstance(shared, claims.MemoryClaims):
        shared.items.clear()
    else:
        for pattern in ("claim:analysis:*", "answer:analysis:*"):
            for key in shared.client.scan_iter(pattern):
                shared.client.delete(key)
    pool._jobs.clear()


def solo_game(key, deal_row=None):
    deal_row = deal_row or DealRow.for_code(RULE_BOOK_DEAL)
    race = actions.create_race(deal_row, key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    return race.room


def play(room, key, plays):
    """Moves (lists of slots) and undos ("undo"), numbered from the entry's next seq."""
    seq = Entry.objects.get(race__room=room, player_key=key).seq
    for played in plays:
        seq += 1
        if played == "undo":
            reply = actions.undo(room, key, seq).reply[0]
        else:
            reply = actions.move(room, key, seq, played).reply[0]
        assert reply["type"] == "moved", reply


def finished_game(plays, deal_row=None):
    """A solo game of `plays`, given up unless won: (room, player id, player key)."""
    _, key = new_session()
    room = solo_game(key, deal_row)
    play(room, key, plays)
    if Entry.objects.get(race__room=room).status != Entry.WON:
        actions.resign(room, key)
    return room, Entry.objects.get(race__room=room).pk, key


def analysed(room, player, viewer, within_s=60):
    """The analysis once the solver pool has it (the first asks get None: computing)."""
    deadline = time.monotonic() + within_s
    while (answer := analysis.analysis_of(room, player, viewer)) is None:
        assert time.monotonic() < deadline, "the solver pool never answered"
        time.sleep(0.05)
    return answer


def table_at(player, step):
    """The game exactly as its replay shows it at `step` (the engine, from the stored moves)."""
    entry = Entry.objects.select_related("race__deal").get(pk=player)
    steps = history.entry_steps(entry.race, entry, move_log.rows(entry))
    return games.replay(entry, entry.race.deal, upto=steps[step]["seq"])


def refusal(room, player, viewer):
    with pytest.raises(GameError) as refused:
        analysis.analysis_of(room, player, viewer)
    return refused.value.code


STRAIGHT = BLUNDER
TAKEN_BACK_ON_THE_WAY = BLUNDER[:3] + ["undo", "undo"] + BLUNDER[1:]
"""The same final line, with two moves taken back and played again early on."""


@pytest.mark.parametrize(
    ("plays", "marked"), [(STRAIGHT, LOST_BY), (TAKEN_BACK_ON_THE_WAY, LOST_BY + 4)]
)
def test_the_marked_move_lost_it_the_table_before_could_be_won_the_one_after_not(plays, marked):
    room, player, key = finished_game(plays)
    answer = analysed(room, player, key)
    assert answer["verdict"] == WINNABLE and answer["winnable_until"] == LOST_BY - 1
    assert answer["lost_step"] == marked and answer["from_step"] == marked - 1
    assert solve(table_at(player, marked - 1)).verdict == WINNABLE
    assert solve(table_at(player, marked)).verdict == NOT_WINNABLE


@pytest.mark.parametrize("plays", [STRAIGHT, TAKEN_BACK_ON_THE_WAY])
def test_the_winning_line_wins_from_the_last_winnable_table_step_by_step(plays):
    room, player, key = finished_game(plays)
    answer = analysed(room, player, key)
    game = table_at(player, answer["from_step"])
    assert answer["line"], "a winning line to step through"
    for step in answer["line"]:
        game.remove(step["changed"])
        assert {view["slot"]: view["top"] for view in step["slots"]} == {
            slot: game.playable().get(slot) for slot in SLOTS
        }
        assert step["score"] == game.score and step["cards_left"] == game.cards_left
    assert game.status == WON and answer["line"][-1]["status"] == WON


def test_a_slip_taken_back_is_not_marked_and_the_game_stayed_winnable_to_its_end():
    room, player, key = finished_game(BLUNDER[:LOST_BY] + ["undo"])
    answer = analysed(room, player, key)
    assert solve(table_at(player, LOST_BY)).verdict == NOT_WINNABLE  # the slip itself
    assert (answer["lost_step"], answer["winnable_until"], answer["moves"]) == (
        None,
        LOST_BY - 1,
        LOST_BY - 1,
    )
    last = len(BLUNDER[:LOST_BY]) + 2  # the deal, the moves, the undo, then "gave up"
    assert answer["from_step"] == last
    game = table_at(player, last)
    for step in answer["line"]:
        game.remove(step["changed"])
    assert game.status == WON


def test_a_won_game_stayed_winnable_to_the_end_and_asks_the_solver_nothing(monkeypatch):
    room, player, key = finished_game(WIN)
    monkeypatch.setattr(pool, "submit", lambda *a: pytest.fail("a won line needs no solver"))
    answer = analysis.analysis_of(room, player, key)
    assert (answer["verdict"], answer["winnable_until"], answer["lost_step"]) == (
        WINNABLE,
        48,
        None,
    )
    assert (answer["from_step"], answer["line"]) == (48, [])


def test_a_deal_no_one_could_win_has_no_marker_and_no_line():
    blocking = DealRow(title="blocks after one pair")
    blocking.make_custom(layout_with_tops(BLOCKING_TOPS, BLOCKING_RESERVE))
    blocking.save()
    room, player, key = finished_game([["P2", "P1"]], deal_row=blocking)
    answer = analysed(room, player, key)
    assert answer["verdict"] == NOT_WINNABLE
    assert (answer["winnable_until"], answer["lost_step"], answer["line"]) == (None, None, [])


def test_no_analysis_of_a_game_still_in_play():
    _, key = new_session()
    room = solo_game(key)
    play(room, key, BLUNDER[:3])
    player = Entry.objects.get(race__room=room).pk
    assert refusal(room, player, key) == "still_playing"


def test_no_analysis_while_the_race_runs_even_for_a_player_whose_game_is_over():
    _, ada = new_session()
    _, bob = new_session()
    race = actions.create_race(DealRow.for_code(RULE_BOOK_DEAL), ada, name="Ada")
    actions.connect(race.room, ada, "socket-a")
    actions.join(race.room, bob, "Bob", "socket-b")
    actions.start(race.room, ada)
    Race.objects.filter(pk=race.pk).update(starts_at=timezone.now() - datetime.timedelta(seconds=1))
    actions.tick(race.room)
    actions.resign(race.room, ada)
    ada_entry = Entry.objects.get(race=race, player_key=ada)
    assert refusal(race.room, ada_entry.pk, ada) == "still_playing"
    actions.resign(race.room, bob)
    assert analysed(race.room, ada_entry.pk, ada)["verdict"] == WINNABLE


def test_no_analysis_of_a_replay_the_asker_may_not_watch_nor_of_todays_daily_deal(monkeypatch):
    _, ada = new_session()
    _, stranger = new_session()
    rule_book = DealRow.for_code(RULE_BOOK_DEAL)  # a guest's attempt: the guests' deal
    day = DailyDeal.objects.create(
        date=days.today(), deal=DealRow.for_code("HM1-N-AAAAAAC"), guest_deal=rule_book
    )
    race = alone.daily_race(day, ada, "Ada")
    actions.connect(race.room, ada, "test-socket")
    play(race.room, ada, BLUNDER[:2])
    actions.resign(race.room, ada)
    player = Entry.objects.get(race=race).pk
    assert refusal(race.room, player, stranger) == "not_found"
    assert refusal(race.room, player + 999, ada) == "not_found"
    assert refusal(race.room, player, ada) == "daily_locked"  # a winning line would solve it
    tomorrow = day.date + datetime.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)
    assert analysed(race.room, player, stranger)["verdict"] == WINNABLE


def test_the_api_computes_then_answers_and_refuses_as_the_replay_does():
    client = Client()
    client.get("/")
    room = client.post(
        "/api/races/", {"deal": RULE_BOOK_DEAL, "solo": True}, content_type="application/json"
    ).json()["room"]
    entry = Entry.objects.get(race__room=room)
    url = f"/api/replays/{room}/{entry.pk}/analysis/"
    asked = client.get(url)
    assert asked.status_code == 409 and asked.json()["error"]["code"] == "still_playing"
    actions.connect(room, entry.player_key, "test-socket")
    play(room, entry.player_key, BLUNDER)
    actions.resign(room, entry.player_key)
    deadline = time.monotonic() + 60
    while (asked := client.get(url)).status_code == 202:
        assert asked.json() == {"status": "computing"}
        assert time.monotonic() < deadline, "the solver pool never answered"
        time.sleep(0.05)
    assert asked.status_code == 200 and asked.json()["lost_step"] == LOST_BY
    missing = client.get(f"/api/replays/{room}/{entry.pk + 999}/analysis/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_a_second_player_with_the_same_line_costs_no_solve(monkeypatch):
    room, player, key = finished_game(BLUNDER)
    first = analysed(room, player, key)
    stored = {row.pk: row.created_at for row in PositionVerdict.objects.all()}
    assert stored, "the positions asked are stored"
    forget_questions()  # the second player asks another process: no job, no answer there
    monkeypatch.setattr(pool, "submit", lambda *a: pytest.fail("solved a second time"))
    room, player, key = finished_game(BLUNDER)
    assert analysis.analysis_of(room, player, key) == first
    assert {row.pk: row.created_at for row in PositionVerdict.objects.all()} == stored


def test_asking_on_a_second_process_while_the_first_solves_starts_no_second_solve(monkeypatch):
    room, player, key = finished_game(BLUNDER)
    assert analysis.analysis_of(room, player, key) is None  # process one claims it and solves
    monkeypatch.setattr(pool, "submit", lambda *a: pytest.fail("a second solve"))
    answer = analysed(room, player, key)  # process two stores process one's answer
    assert answer["lost_step"] == LOST_BY
    assert PositionVerdict.objects.filter(deal__code=RULE_BOOK_DEAL).exists()


def test_every_stored_verdict_is_the_solvers_on_that_very_table():
    room, player, key = finished_game(BLUNDER)
    analysed(room, player, key)
    deal = Deal.from_code(RULE_BOOK_DEAL)
    rows = PositionVerdict.objects.filter(deal__code=RULE_BOOK_DEAL)
    assert {row.moves for row in rows} >= {0, LOST_BY - 1, LOST_BY}
    for row in rows:
        assert row.verdict == solve(replay(deal, BLUNDER[: row.moves])).verdict


def test_the_solver_runs_in_the_pool_never_in_the_request(monkeypatch):
    room, player, key = finished_game(BLUNDER)
    asked_in = []
    real_submit = pool.submit

    def spy(job_key, function, *args):
        asked_in.append(function.__module__)
        return real_submit(job_key, function, *args)

    monkeypatch.setattr(pool, "submit", spy)
    monkeypatch.setattr(
        "game.solver.verdicts.solve", lambda *a, **k: pytest.fail("solved in-process")
    )
    assert analysed(room, player, key)["lost_step"] == LOST_BY
    assert set(asked_in) == {"game.solver.verdicts"}
