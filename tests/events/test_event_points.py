"""An event's points rule (game/events/points.py): a game's score, a win's bonus, the
streak bonus from the third win in a row, and the order with its tie-breaks."""

from game.events.points import STREAK_BONUS, WIN_BONUS, Result, order_key, ranks, settle


def test_a_game_scores_its_score_and_a_win_adds_the_bonus():
    totals = settle([Result(score=520, won=True, time_ms=60_000), Result(200, False, 30_000)])
    assert totals.per_game == (520 + WIN_BONUS, 200)
    assert (totals.points, totals.wins, totals.time_ms) == (820, 1, 90_000)


def test_the_streak_bonus_comes_with_the_third_win_in_a_row_and_a_loss_ends_the_run():
    won, lost = Result(500, True, 1), Result(100, False, 1)
    totals = settle([won, won, won, won, lost, won, won, won])
    bonus = [WIN_BONUS, WIN_BONUS, WIN_BONUS + STREAK_BONUS, WIN_BONUS + STREAK_BONUS, 0]
    bonus += [WIN_BONUS, WIN_BONUS, WIN_BONUS + STREAK_BONUS]
    assert totals.per_game == tuple(500 * (b > 0) + 100 * (b == 0) + b for b in bonus)


def test_nothing_played_is_nothing():
    assert settle([]).points == 0


def test_more_points_first_then_less_time_then_who_joined_first():
    players = {"slow": (900, 80_000, 1), "fast": (900, 50_000, 3), "top": (1000, 99_000, 2)}
    order = sorted(players, key=lambda p: order_key(*players[p]))
    assert order == ["top", "fast", "slow"]


def test_players_level_on_points_and_time_share_a_rank():
    keys = [order_key(10, 5, 1), order_key(8, 5, 2), order_key(8, 5, 3), order_key(7, 1, 4)]
    assert ranks(keys) == [1, 2, 2, 4]
