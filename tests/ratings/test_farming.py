"""
The rules against farming a rating (game/ratings/farming.py): a race of seconds or a
player who gave up before ten moves is no game; gains against provisional and young
accounts are damped; gains against new or same-address accounts stop at a day's cap.
"""

from game.ratings import farming


def test_a_race_of_seconds_is_too_short_and_one_of_a_minute_is_not():
    assert farming.too_short(5) and farming.too_short(29.9)
    assert not farming.too_short(60)


def test_giving_up_before_ten_moves_leaves_a_player_out():
    assert farming.left_early(gave_up=True, moves=0)
    assert farming.left_early(gave_up=True, moves=9)
    assert not farming.left_early(gave_up=True, moves=10)
    assert not farming.left_early(gave_up=False, moves=0)  # played on, out of time


def test_a_gain_against_a_young_or_provisional_opponent_is_damped_a_loss_never():
    settled = farming.weight(deviation=60, rated_games=40, young=False)
    provisional = farming.weight(deviation=350, rated_games=0, young=False)
    few_games = farming.weight(deviation=80, rated_games=3, young=False)
    young = farming.weight(deviation=350, rated_games=0, young=True)
    assert (settled, provisional, few_games, young) == (1.0, 0.5, 0.5, 0.25)
    assert farming.damped(40.0, [settled, young]) == 10.0
    assert farming.damped(40.0, []) == 40.0
    assert farming.damped(-40.0, [young]) == -40.0


def test_gains_against_new_or_same_address_accounts_stop_at_the_days_cap():
    assert farming.within_cap(12.0, gained=0.0, cap=30.0) == 12.0
    assert farming.within_cap(12.0, gained=25.0, cap=30.0) == 5.0
    assert farming.within_cap(12.0, gained=31.0, cap=30.0) == 0.0
    assert farming.within_cap(-12.0, gained=31.0, cap=30.0) == -12.0
