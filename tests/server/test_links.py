"""
A row's link reversed once a page (game/base/links.py) is the link `{% url %}` gives:
for any name an account may have and any date, and on a site served under a script
prefix; a value the route cannot take is refused as `reverse()` refuses it.
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
