"""
The rating maths (game/ratings/): Glicko-2 held to Glickman's worked example, the
pairwise results of a race's finishing order and of an event's standings (each player
against their neighbours), and the rank names' table.
"""

import re
from pathlib import Path

import pytest

from game.ratings import glicko2, pairs, ranks
from game.ratings.glicko2 import SCALE, Rating

EXAMPLE_PLAYER = Rating(1500, 200, 0.06)
EXAMPLE_GAMES = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
"""The paper's example: a 1500 ± 200 player beats a 1400 ± 30 one and loses to
1550 ± 100 and 1700 ± 300, with τ = 0.5."""


def test_glickmans_worked_example_gives_1464_06_151_52_0_05999():
    after = glicko2.rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.5)
    # The paper rounds each step to four decimals on its own scale (μ' = −0.2069,
    # φ' = 0.8722) before converting: 1464.06; unrounded, the same steps give 1464.0507.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert round(1500 + round((after.rating - 1500) / SCALE, 4) * SCALE, 2) == 1464.06
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_new_player_starts_at_1500_plus_or_minus_350_and_is_provisional():
    start = Rating()
    assert (start.rating, start.deviation, start.volatility) == (1500, 350, 0.06)
    assert ranks.provisional(start.deviation)
    assert ranks.shown(start.rating, start.deviation) == "1500?"
    assert ranks.shown(1612.4, 109.9) == "1612"


def test_a_win_raises_a_loss_lowers_and_both_players_grow_surer():
    winner = glicko2.rate(Rating(), [(Rating(), 1.0)])
    loser = glicko2.rate(Rating(), [(Rating(), 0.0)])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 350 and loser.deviation < 350
    drawn = glicko2.rate(Rating(), [(Rating(), 0.5)])
    assert drawn.rating == pytest.approx(1500)


def test_a_player_away_grows_less_sure_by_the_volatility_each_idle_period():
    settled = Rating(1700, 50, 0.06)
    # Step 6 alone, n times: phi' = sqrt(phi^2 + n sigma^2) on Glicko-2's scale.
    assert glicko2.idle(settled, 0) == settled
    assert glicko2.idle(settled, 1) == glicko2.rate(settled, [])
    assert glicko2.idle(settled, 30).deviation == pytest.approx(
        SCALE * ((50 / SCALE) ** 2 + 30 * 0.06**2) ** 0.5
    )
    assert round(glicko2.idle(settled, 30).deviation, 1) == 75.9
    away = glicko2.idle(settled, 120)
    assert (away.rating, away.volatility) == (1700, 0.06)
    assert ranks.provisional(away.deviation)  # back after four months: provisional again
    assert glicko2.idle(settled, 10_000).deviation == 350


def test_beating_a_stronger_player_is_worth_more():
    strong = glicko2.rate(Rating(1500, 80), [(Rating(1800, 80), 1.0)])
    weak = glicko2.rate(Rating(1500, 80), [(Rating(1200, 80), 1.0)])
    assert strong.rating - 1500 > 3 * (weak.rating - 1500) > 0


def test_enough_games_end_the_provisional_mark():
    player = Rating()
    games = 0
    while ranks.provisional(player.deviation):
        player = glicko2.rate(player, [(Rating(1500, 200), games % 2)])
        games += 1
    assert 3 <= games <= 30 and player.deviation < ranks.PROVISIONAL_DEVIATION


def result(won=False, abandoned=False, time_ms=None, score=0, moves=0):
    return pairs.Result(won, abandoned, time_ms, score, moves)


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        (result(won=True, time_ms=90_000, score=520), result(score=500, moves=40), 1.0),
        (result(won=True, time_ms=80_000), result(won=True, time_ms=90_000), 1.0),
        (result(won=True, time_ms=90_000), result(won=True, time_ms=90_000), 0.5),
        (result(score=300, moves=40), result(score=200, moves=20), 1.0),
        (result(score=300, moves=30), result(score=300, moves=40), 1.0),
        (result(score=300, moves=30), result(score=300, moves=30), 0.5),
        (result(score=0), result(abandoned=True, score=500, moves=5), 1.0),
        (result(abandoned=True, score=400), result(abandoned=True, score=100), 1.0),
    ],
)
def test_a_pair_is_decided_by_the_finishing_order(mine, theirs, expected):
    assert pairs.score(mine, theirs) == expected
    assert pairs.score(theirs, mine) == 1 - expected


def test_a_race_of_four_is_six_games_each_player_playing_three():
    results = {
        "won": result(won=True, time_ms=100_000, score=520),
        "high": result(score=400, moves=50),
        "low": result(score=100, moves=20),
        "left": result(abandoned=True, score=450),
    }
    games = pairs.games(results)
    assert {name: sum(score for _, score in played) for name, played in games.items()} == {
        "won": 3,
        "high": 2,
        "low": 1,
        "left": 0,
    }
    assert all(len(played) == 3 for played in games.values())


def test_a_pair_left_out_is_no_game_for_either():
    results = {"a": result(score=10), "b": result(score=5), "c": result()}
    games = pairs.games(results, counts=lambda x, y: {x, y} != {"a", "b"})
    assert [other for other, _ in games["a"]] == ["c"]
    assert [other for other, _ in games["b"]] == ["c"]


def test_an_event_compares_each_player_with_ten_above_and_ten_below():
    standings = [(f"p{place}", place + 1) for place in range(50)]
    games = pairs.neighbours(standings)
    assert [len(games[f"p{place}"]) for place in (0, 5, 10, 25, 44, 49)] == [10, 15, 20, 20, 15, 10]
    middle = dict(games["p25"])
    assert sorted(middle) == sorted(f"p{place}" for place in [*range(15, 25), *range(26, 36)])
    assert {middle[f"p{place}"] for place in range(15, 25)} == {0.0}  # ranked above: they win
    assert {middle[f"p{place}"] for place in range(26, 36)} == {1.0}
    assert sum(len(played) for played in games.values()) == 2 * sum(range(40, 50))


def test_an_event_s_shared_rank_is_a_draw_and_a_pair_left_out_no_game():
    standings = [("a", 1), ("b", 2), ("c", 2), ("d", 4)]
    games = pairs.neighbours(standings, reach=2, counts=lambda x, y: {x, y} != {"a", "b"})
    assert games == {
        "a": [("c", 1.0)],
        "b": [("c", 0.5), ("d", 1.0)],
        "c": [("a", 0.0), ("b", 0.5), ("d", 1.0)],
        "d": [("b", 0.0), ("c", 0.0)],
    }
    assert pairs.neighbours([("alone", 1)]) == {"alone": []}


def test_ranks_follow_the_documented_table():
    assert [ranks.rank(r) for r in (800, 1199, 1200, 1500, 1650, 1850, 2400)] == [
        "new_moon",
        "new_moon",
        "crescent",
        "first_quarter",
        "gibbous",
        "full_moon",
        "eclipse",
    ]


def test_docs_ratings_table_is_the_rank_table():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "ratings.md").read_text()
    rows = re.findall(r"^\| [^|]+ \| `(\w+)` \| (?:\(below \d+\)|(\d+)) \|$", docs, re.M)
    assert [(int(floor or 0), code) for code, floor in rows] == list(ranks.RANKS)
