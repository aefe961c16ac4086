"""
Ratings nobody can farm (docs/ratings.md, "Farming"): a farmer and feeder accounts of
one address, the feeders giving up, went 1500 → 1857 and #1 on the board in six races
(this file's farm of four feeders, three races each: 1500 → 1969 before these rules).
Now a race of seconds, or one an opponent gave up before ten moves, is not rated and
says so; a gain against a provisional or young account is damped; gains against new
or same-address accounts stop at a day's cap; a block keeps two accounts out of one
another's races. Played through the race's actions, as a socket's frames are.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.base.errors import GameError
from game.lobby import quick
from game.models import Account, Block, Race, RatingChange
from game.race import actions, frames
from game.ratings import farming, glicko2
from tests.support.server import account_key, rule_book_race, signed_up

from .test_ratings import a_minute_in, plays, rated_race

pytestmark = pytest.mark.django_db

FRESH = timedelta(minutes=5)
"""A feeder's age: signed up for the farm."""


def rating(name):
    return Account.objects.get(user__username=name).rating


def settled(name, rating=1500.0, deviation=50.0):
    """`name`'s account with a settled rating of many games (made if new)."""
    if not Account.objects.filter(user__username=name).exists():
        account_key(name)
    Account.objects.filter(user__username=name).update(
        rating=rating, deviation=deviation, rated_games=40
    )


def lines_of(race):
    race.refresh_from_db()
    assert race.status == Race.FINISHED
    return {line["name"]: line["rating"] for line in frames.finished(race)["standings"]}


def gives_up(race, keys, first, then, moves=(0, 0)):
    """`first` gives up after moves[0] moves, then `then` after moves[1]."""
    for name, count in ((first, moves[0]), (then, moves[1])):
        plays(race, keys[name], count)
        actions.resign(race.room, keys[name])
    return lines_of(race)


def test_a_farm_of_feeders_resigning_at_once_leaves_the_farmer_where_he_was():
    signed_up("farmer")
    feeders = [f"feeder{n}" for n in range(4)]
    for name in feeders:
        signed_up(name, age=FRESH)  # the same address as the farmer's
    for _ in range(3):  # the pair's cap a day
        for feeder in feeders:
            race, keys = rated_race("farmer", feeder)
            a_minute_in(race)
            lines = gives_up(race, keys, feeder, "farmer", moves=(0, 3))  # the farmer ahead
            assert lines["farmer"]["unrated"] == farming.LEFT_EARLY
            assert lines["farmer"]["change"] == 0 and not lines["farmer"]["counted"]
    assert rating("farmer") == 1500.0
    assert not RatingChange.objects.exists()
    assert Account.objects.get(user__username="farmer").rated_games == 0  # not on the board


def test_a_farm_whose_feeders_play_ten_moves_first_stays_within_the_days_cap(settings):
    signed_up("farmer")
    feeders = [f"feeder{n}" for n in range(4)]
    for name in feeders:
        signed_up(name, age=FRESH)
    for _ in range(3):
        for feeder in feeders:
            race, keys = rated_race("farmer", feeder)
            a_minute_in(race)
            gives_up(race, keys, feeder, "farmer", moves=(10, 12))  # the farmer's score is higher
    gained = rating("farmer") - 1500
    assert 0 < gained <= settings.HALFMOON_RATED_NEW_DAILY
    assert RatingChange.objects.filter(user__username="farmer", wins=1).count() == 12


def test_a_race_of_seconds_is_not_rated_and_says_so():
    settled("ada")
    settled("bob")
    race, keys = rated_race("ada", "bob")
    lines = gives_up(race, keys, "bob", "ada", moves=(10, 12))
    assert lines["ada"]["unrated"] == lines["bob"]["unrated"] == farming.TOO_SHORT
    assert rating("ada") == rating("bob") == 1500.0


def test_a_player_who_gives_up_before_ten_moves_is_left_out_the_others_rated():
    for name in ("ada", "bob", "cy"):
        settled(name)
    race, keys = rated_race("ada", "bob", "cy")
    a_minute_in(race)
    plays(race, keys["ada"], 12)
    plays(race, keys["bob"], 10)
    for name in ("cy", "bob", "ada"):
        actions.resign(race.room, keys[name])
    lines = lines_of(race)
    assert lines["cy"]["unrated"] == farming.LEFT_EARLY and rating("cy") == 1500.0
    assert "unrated" not in lines["ada"] and lines["ada"]["counted"]
    assert rating("ada") > 1500 > rating("bob")
    assert RatingChange.objects.get(user__username="ada").wins == 1  # Bob only


def undamped_gain(before, opponent):
    return glicko2.rate(before, [(opponent, 1.0)]).rating - before.rating


@pytest.mark.parametrize(
    ("age", "deviation", "weight"),
    [
        (timedelta(days=30), 50.0, 1.0),
        (timedelta(days=30), 350.0, farming.PROVISIONAL_WEIGHT),
        (timedelta(hours=2), 350.0, farming.YOUNG_WEIGHT),
    ],
)
def test_a_win_against_a_provisional_or_young_account_gains_less(age, deviation, weight):
    settled("ada", deviation=200.0)
    account_key("bob", age=age)
    Account.objects.filter(user__username="bob").update(deviation=deviation, rated_games=40)
    race, keys = rated_race("ada", "bob")
    a_minute_in(race)
    gives_up(race, keys, "bob", "ada", moves=(10, 12))
    change = RatingChange.objects.get(user__username="ada")
    full = undamped_gain(glicko2.Rating(1500.0, 200.0), glicko2.Rating(1500.0, deviation))
    assert change.change == pytest.approx(full * weight)
    assert rating("bob") < 1500  # a loss is never damped


def test_gains_against_an_account_of_ones_own_address_stop_at_the_days_cap(settings):
    signed_up("ada")
    signed_up("twin")  # the same address: the test client's
    settled("ada", deviation=300.0)
    settled("twin")
    settled("stranger")  # an address of its own
    address = Account.objects.get(user__username="ada").signup_address
    assert address == Account.objects.get(user__username="twin").last_address
    assert len(address) == 32 and "127.0.0.1" not in address  # a keyed hash, not the address
    for opponent in ("twin", "twin", "stranger"):
        race, keys = rated_race("ada", opponent)
        a_minute_in(race)
        gives_up(race, keys, opponent, "ada", moves=(10, 12))
    changes = [c.change for c in RatingChange.objects.filter(user__username="ada")]
    assert changes[0] == pytest.approx(settings.HALFMOON_RATED_NEW_DAILY)
    assert changes[1] == 0.0  # the day's cap is spent
    assert changes[2] > 10  # a stranger's game counts in full


# --- blocks -------------------------------------------------------------------------------


def block(blocker, blocked):
    Block.objects.create(
        blocker=User.objects.get(username=blocker), blocked=User.objects.get(username=blocked)
    )


def test_the_rated_queue_never_seats_two_accounts_with_a_block_between_them(settings):
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    keys = {name: account_key(name) for name in ("ada", "bob", "cy")}
    block("bob", "ada")
    assert quick.poll(keys["ada"], "ada", rated=True)["waiting"] == 1
    assert quick.poll(keys["bob"], "bob", rated=True)["waiting"] == 2
    assert not Race.objects.exists()
    placed = quick.poll(keys["cy"], "cy", rated=True)
    race = Race.objects.get(room=placed["room"])
    assert sorted(race.entries.values_list("name", flat=True)) == ["ada", "cy"]


def test_a_blocked_account_cannot_join_the_blockers_race_by_its_link():
    ada, bob, cy = account_key("ada"), account_key("bob"), account_key("cy")
    block("ada", "bob")
    race = rule_book_race(ada, name="ada")
    with pytest.raises(GameError) as refused:
        actions.join(race.room, bob, "bob", "socket-bob")
    assert refused.value.code == "race_blocked"
    actions.join(race.room, cy, "cy", "socket-cy")
    assert sorted(race.entries.values_list("name", flat=True)) == ["ada", "cy"]
    theirs = rule_book_race(bob, name="bob")  # nor the blocker the blocked one's
    with pytest.raises(GameError):
        actions.join(theirs.room, ada, "ada", "socket-ada")


def test_an_account_keeps_a_hash_of_the_address_it_last_logged_in_from():
    signed_up("ada")
    first = Account.objects.get(user__username="ada")
    assert first.signup_address == first.last_address != ""
    elsewhere = Client(REMOTE_ADDR="203.0.113.7")
    answer = elsewhere.post("/accounts/login/", {"username": "ada", "password": "moon-race-42!"})
    assert answer.status_code == 302
    moved = Account.objects.get(user__username="ada")
    assert moved.signup_address == first.signup_address
    assert moved.last_address not in ("", first.last_address, "203.0.113.7")
