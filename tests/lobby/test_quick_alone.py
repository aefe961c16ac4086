"""
A quick racer alone in the queue: after HALFMOON_QUICK_ALONE_S a recorded game is
offered (never on today's or a coming daily deal), raced as a ghost race while the
seat in the queue is kept, so a quick race still forms when someone comes.
"""

import datetime
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game.base import days
from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal, Deal, QuickSeat, Race
from tests.support.server import (
    GUESTS_CODE,
    guest_key,
    racing_alone,
    ranked_daily_win,
    win_at_a_persons_pace,
)

pytestmark = pytest.mark.django_db
GHOST = "/api/quick/ghost/"


@pytest.fixture
def today():
    """Today's ranked deal is the rule book's own code, whose win the tests can play."""
    return DailyDeal.objects.create(
        date=days.today(), deal=Deal.for_code(RULE_BOOK_DEAL), guest_deal=Deal.for_code(GUESTS_CODE)
    )


def rule_book_layout(title):
    """The rule book's layout under a custom code of its own: another deal, same win."""
    deal = Deal(title=title)
    deal.make_custom(EngineDeal.from_code(RULE_BOOK_DEAL))
    deal.save()
    return deal


def won_race(deal, name):
    """A finished race of one on `deal`, won at a person's pace (judged clean)."""
    key = name.ljust(32, "k")
    return win_at_a_persons_pace(racing_alone(key, deal, name=name), key)


def queued(name="Ada", waiting=1):
    """A browser in the quick-race queue (one poll), with its player key."""
    client = Client()
    client.get("/")
    key = guest_key(client)
    assert poll(client, name) == (202, {"waiting": waiting})
    return client, key


def poll(client, name=None):
    answer = client.post("/api/quick/", {"name": name} if name else {}, "application/json")
    return answer.status_code, answer.json()


def wait_alone(key, seconds):
    QuickSeat.objects.filter(player_key=key).update(
        since=timezone.now() - timedelta(seconds=seconds)
    )


def test_the_offer_comes_after_the_setting_alone_and_not_with_company(today, settings):
    settings.HALFMOON_QUICK_ALONE_S = 30
    ada, ada_key = queued()
    wait_alone(ada_key, 29)
    assert poll(ada) == (202, {"waiting": 1})
    wait_alone(ada_key, 31)
    assert poll(ada) == (202, {"waiting": 1, "alone": True})
    settings.HALFMOON_QUICK_ALONE_S = 60
    assert poll(ada) == (202, {"waiting": 1})
    settings.HALFMOON_QUICK_ALONE_S, settings.HALFMOON_QUICK_WAIT_PAIR_S = 30, 3600
    queued("Bob", waiting=2)
    assert poll(ada) == (202, {"waiting": 2})  # not alone any more: no offer
    assert ada.get(GHOST).json() == {"ghost": None}  # nobody has won a game yet


def test_the_recorded_game_offered_is_never_on_todays_or_a_coming_daily_deal(today):
    other = rule_book_layout("a deal raced once")
    bea = won_race(other, "bea")
    yesterday = DailyDeal.objects.create(
        date=days.today() - datetime.timedelta(days=1), deal=rule_book_layout("yesterday's")
    )
    cy = ranked_daily_win(yesterday, "cy")
    todays_race = won_race(today.deal, "dan")  # the newest: on today's deal (a typed code)
    ranked_daily_win(today, "eve")  # today's ranked attempt, newer still
    client, key = queued()

    offered = client.get(GHOST).json()["ghost"]
    assert offered == {
        "id": cy.pk,
        "name": "cy",
        "score": 520,
        "moves": 48,
        "time_ms": cy.time_ms,
        "date": yesterday.date.isoformat(),
    }
    refused = client.post(GHOST, {"ghost": todays_race.pk}, "application/json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (404, "not_found")

    assert client.post(GHOST, {"ghost": bea.pk}, "application/json").status_code == 201
    DailyDeal.objects.create(date=days.today() + datetime.timedelta(days=1), deal=other)
    assert client.post(GHOST, {"ghost": bea.pk}, "application/json").status_code == 404
    assert client.get(GHOST).json()["ghost"]["id"] == cy.pk  # bea's deal is tomorrow's daily
    bad = client.post(GHOST, {"ghost": "1"}, "application/json")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "bad_field")


def test_racing_the_recorded_game_keeps_the_seat_and_the_quick_race_still_forms(today, settings):
    bea = won_race(rule_book_layout("a deal raced once"), "bea")
    ada, ada_key = queued()
    settings.HALFMOON_QUICK_ALONE_S, settings.HALFMOON_QUICK_WAIT_PAIR_S = 0, 0
    assert poll(ada) == (202, {"waiting": 1, "alone": True})
    assert ada.get(GHOST).json()["ghost"]["id"] == bea.pk
    created = ada.post(GHOST, {"ghost": bea.pk, "name": "Ada"}, "application/json")
    assert created.status_code == 201
    ghost_race = Race.objects.get(room=created.json()["room"])
    assert (ghost_race.mode, ghost_race.ghost_of, ghost_race.deal) == (
        Race.GHOST,
        bea,
        bea.race.deal,
    )
    again = ada.post(GHOST, {"ghost": bea.pk}, "application/json")
    assert again.json()["room"] == ghost_race.room  # the unfinished one, found again

    assert poll(ada) == (202, {"waiting": 1, "alone": True})  # still in the queue
    bob = Client()
    bob.get("/")
    status, placed = poll(bob, "Bob")
    assert status == 200
    quick_race = Race.objects.get(room=placed["room"])
    assert quick_race.mode == Race.QUICK
    assert sorted(quick_race.entries.values_list("name", flat=True)) == ["Ada", "Bob"]
    assert poll(ada)[1]["room"] == quick_race.room
