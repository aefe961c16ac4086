"""Quick race: the waiting queue that seats players together, and its HTTP API."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game.lobby import quick
from game.models import Race
from tests.support.server import post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def test_quick_race_seats_three_waiting_players_once_they_have_waited(settings):
    settings.HALFMOON_QUICK_WAIT_S = 0
    assert quick.poll("a" * 32, "Ada") == {"waiting": 1}
    assert quick.poll("b" * 32, "Bob") == {"waiting": 2}
    placed = quick.poll("c" * 32, "Cy")
    race = Race.objects.get(room=placed["room"])
    assert race.mode == Race.QUICK and race.status == Race.COUNTDOWN
    assert sorted(race.entries.values_list("name", flat=True)) == ["Ada", "Bob", "Cy"]
    assert quick.poll("a" * 32, "Ada") == {"room": race.room}


def test_quick_race_waits_for_a_third_player_and_forgets_those_who_stop_polling(settings):
    settings.HALFMOON_QUICK_WAIT_S = 0
    settings.HALFMOON_QUICK_STALE_S = 0
    assert quick.poll("a" * 32, "Ada") == {"waiting": 1}
    assert quick.poll("b" * 32, "Bob") == {"waiting": 1}


def test_a_quick_race_seat_never_collected_does_not_send_its_player_to_an_old_race(settings):
    """Ada was seated by Bob's poll but closed her tab first; days later she queues anew."""
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    assert quick.poll("a" * 32, "Ada") == {"waiting": 1}
    placed = quick.poll("b" * 32, "Bob")
    race = Race.objects.get(room=placed["room"])
    race.entries.filter(player_key="a" * 32).delete()  # no socket when the countdown ended
    days_ago = timezone.now() - timedelta(days=2)
    Race.objects.filter(pk=race.pk).update(status=Race.FINISHED, starts_at=days_ago)
    assert quick.poll("a" * 32, "Ada") == {"waiting": 1}


def test_quick_race_over_http_answers_waiting_then_the_room(browser, settings):
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    response = post(browser, "/api/quick/", {"name": "Ada"})
    assert response.status_code == 202 and response.json() == {"waiting": 1}
    other = Client(enforce_csrf_checks=True)
    other.get("/")
    placed = post(other, "/api/quick/", {})
    assert placed.status_code == 200 and placed.json()["url"].startswith("/race/")
    assert post(browser, "/api/quick/", {}).json()["room"] == placed.json()["room"]
