"""
A row's link reversed once a page (game/base/links.py) is the link `{% url %}` gives:
for any name an account may have and any date, a race's room and a replay's room and
player, and on a site served under a script prefix; a value the route cannot take is
refused as `reverse()` refuses it.
"""

import datetime

import pytest
from django.urls import NoReverseMatch, reverse, set_script_prefix

from game.base import links

NAMES = ["ada", "Zoë", "a.b+c-d_e", "me@example.org", "名前", "x%20y", "O'Brien", "a b"]


@pytest.mark.parametrize("name", NAMES)
def test_a_profile_link_is_the_one_reverse_gives(name):
    assert links.url("game:profile", name) == reverse("game:profile", args=[name])


def test_a_day_link_is_the_one_reverse_gives():
    day = datetime.date(2026, 11, 30)
    assert links.url("game:leaderboard", day) == reverse("game:leaderboard", args=["2026-11-30"])


def test_under_a_script_prefix_each_link_has_that_prefix():
    try:
        set_script_prefix("/halfmoon/")
        assert links.url("game:profile", "ada") == "/halfmoon/players/ada/"
        assert links.url("game:profile", "ada") == reverse("game:profile", args=["ada"])
    finally:
        set_script_prefix("/")
    assert links.url("game:profile", "ada") == "/players/ada/"


@pytest.mark.parametrize("value", ["", "a/b"])
def test_a_value_the_route_cannot_take_is_refused_as_reverse_refuses_it(value):
    with pytest.raises(NoReverseMatch):
        links.url("game:profile", value)


@pytest.mark.parametrize("room", ["ABC234", "abc234", "A", "ABCDEFGH"])
def test_a_race_and_a_replay_link_are_the_ones_reverse_gives(room):
    assert links.room_url("game:race", room) == reverse("game:race", args=[room])
    for player in (0, 7, 123456789):
        expected = reverse("game:replay", args=[room, player])
        assert links.room_url("game:replay", room, player) == expected


def test_a_replay_link_under_a_script_prefix_has_that_prefix():
    try:
        set_script_prefix("/halfmoon/")
        assert links.room_url("game:replay", "ABC234", 7) == "/halfmoon/replay/ABC234/7/"
    finally:
        set_script_prefix("/")
    assert links.room_url("game:replay", "ABC234", 7) == "/replay/ABC234/7/"


@pytest.mark.parametrize(("room", "player"), [("ABC-23", 7), ("ABCDEFGHJ", 7), ("ABC234", -1)])
def test_a_replay_link_the_route_cannot_take_is_refused_as_reverse_refuses_it(room, player):
    with pytest.raises(NoReverseMatch):
        links.room_url("game:replay", room, player)
