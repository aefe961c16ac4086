"""Difficulty: how often a casual player — random moves, reserve kept for last — wins."""

import pytest

from game.engine import Deal, Game
from game.engine.difficulty import PLAYOUTS, casual_win_share, difficulty, label_for
from tests.support.layouts import one_family_per_pile


def test_the_same_deal_always_gets_the_same_difficulty(rule_book_deal):
    assert difficulty(rule_book_deal) == difficulty(Deal.from_code(rule_book_deal.code))


def test_a_deal_that_plays_itself_is_easy():
    rating = difficulty(one_family_per_pile())
    assert rating.win_share > 0.5
    assert rating.score < 0.2 and rating.label == "easy"


def test_a_deal_no_casual_game_wins_scores_one(blocking_deal):
    rating = difficulty(blocking_deal)
    assert (rating.win_share, rating.score, rating.label) == (0.0, 1.0, "very hard")


def test_the_share_is_counted_in_whole_games(rule_book_deal):
    share = casual_win_share(rule_book_deal)
    assert (share * PLAYOUTS).is_integer() and 0 <= share <= 1


def test_a_game_in_progress_is_rated_from_where_it_stands(rule_book_deal):
    game = Game(rule_book_deal)
    assert difficulty(game) == difficulty(rule_book_deal)


@pytest.mark.parametrize(
    "score, label",
    [
        (0.0, "easy"),
        (0.39, "easy"),
        (0.4, "medium"),
        (0.649, "medium"),
        (0.65, "hard"),
        (0.949, "hard"),
        (0.95, "very hard"),
        (1.0, "very hard"),
    ],
)
def test_labels_name_bands_of_the_score(score, label):
    assert label_for(score) == label
