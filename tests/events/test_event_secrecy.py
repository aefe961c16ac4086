"""
No path from a competitive deal to anyone before its time (issue 31, finding 2).

Staff could give an event today's ranked or guests' daily deal, and the event's end
published both codes six hours before the day's: `/play/<code>/` then opened the
day's ranked deal for anyone. Now an event refuses a daily deal whose day is not over
and one a coming day may pick (admin, model, the schedule's own draws), a day's pick
passes over an event's deals, and an event's code (page, replays, API, socket state)
stays hidden until every other competitive game on its deal is over.
"""

import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from game.base import days
from game.base.errors import GameError
from game.daily import schedule as calendar
from game.deals import codes, daily
from game.events import play, schedule
from game.models import DailyDeal, Deal, Entry, Event, EventDeal, Race
from game.race import actions
from game.staff.events import EventDealForm
from tests.support.server import GUESTS_CODE, TODAYS_CODE, event_admin_form, new_session

from .test_events import SECOND_DEAL, end_event, joined, running_event, winnable

pytestmark = pytest.mark.django_db


def _refusal(event, deal):
    form = EventDealForm({"index": 5, "deal": deal.pk}, instance=EventDeal(event=event))
    assert not form.is_valid()
    return [error.code for error in form.errors.as_data()["deal"]]


def test_the_admin_refuses_today_s_ranked_and_guests_deals_and_a_coming_day_s(todays_deal):
    event = running_event(started_ago=-timedelta(hours=1))
    coming = DailyDeal.objects.create(  # scheduled beyond the calendar's 28 days
        date=days.today() + timedelta(days=40), deal=winnable("HM1-N-AAAAAAK")
    )
    for code in (TODAYS_CODE, GUESTS_CODE, coming.deal.code):
        assert "daily_deal" in _refusal(event, winnable(code))
        with pytest.raises(ValidationError, match="daily deal"):
            EventDeal(event=event, index=7, deal=Deal.for_code(code)).full_clean()
    tomorrow = days.today() + timedelta(days=1)
    for board in (daily.RANKED, daily.GUESTS):  # not picked yet: any candidate may be
        assert "daily_deal" in _refusal(event, winnable(next(daily.candidates(tomorrow, board))))
    yesterday = DailyDeal.objects.create(
        date=days.today() - timedelta(days=1), deal=winnable("HM1-N-AAAAAAL")
    )
    assert EventDealForm({"index": 5, "deal": yesterday.deal.pk}).is_valid()


def test_an_event_made_by_its_schedule_never_draws_a_daily_deal(todays_deal, monkeypatch):
    drawn = iter([winnable(TODAYS_CODE), winnable(GUESTS_CODE), winnable(SECOND_DEAL)])
    monkeypatch.setattr(codes, "random_deal", lambda: next(drawn))
    assert schedule.winnable_deals(1) == [Deal.for_code(SECOND_DEAL)]
    with pytest.raises(GameError) as refused:
        schedule.check_daily(Deal.for_code(TODAYS_CODE))
    assert refused.value.code == "daily_deal"


def test_a_day_s_pick_passes_over_an_event_s_deal_and_staff_cannot_schedule_one():
    tomorrow = days.today() + timedelta(days=1)
    first, second = list(daily.candidates(tomorrow))[:2]
    winnable(first), winnable(second)
    running_event(codes=[first])  # made before the rule, or a candidate of a later day
    assert calendar.predictions([tomorrow])[tomorrow].code == second
    assert daily.daily_deal(tomorrow).deal.code == second
    with pytest.raises(GameError) as refused:
        calendar.schedule(tomorrow + timedelta(days=1), first, staff=None)
    assert refused.value.code == "event_deal"


def _doors(client, event, races):
    """Everything a browser reads of an event and its games: pages, API, replays."""
    seen = [client.get(f"/events/{event.pk}/").content.decode()]
    for race in races:
        player = Entry.objects.get(race=race).pk
        seen.append(client.get(f"/race/{race.room}/").content.decode())
        seen.append(client.get(f"/api/races/{race.room}/").content.decode())
        seen.append(client.get(f"/replay/{race.room}/{player}/").content.decode())
        seen.append(client.get(f"/api/replays/{race.room}/{player}/").content.decode())
        seen.append(client.get(f"/api/replays/{race.room}/{player}/analysis/").content.decode())
    seen.append(client.get(f"/daily/{days.today().isoformat()}/explorer/").content.decode())
    seen.append(client.get("/events/").content.decode())
    return "\n".join(seen)


def _played(event, key):
    races = []
    for _ in event.deals.all():
        race = play.game_to_play(event, key)
        actions.connect(race.room, key, "socket")
        actions.resign(race.room, key)
        races.append(race)
    return races


def test_an_event_s_codes_stay_hidden_while_its_deals_are_played_elsewhere(todays_deal):
    # Made before the rule: today's ranked deal, and a deal another event plays on.
    event = running_event(codes=[TODAYS_CODE, SECOND_DEAL])
    other = running_event(codes=[SECOND_DEAL], started_ago=timedelta(minutes=1))
    client, key = joined(event, "Ada")
    races = _played(event, key)
    end_event(event)
    for viewer in (client, Client()):  # its own player, and anyone
        read = _doors(viewer, event, races)
        assert TODAYS_CODE not in read and SECOND_DEAL not in read
        page = viewer.get(f"/events/{event.pk}/").content.decode()
        assert f"/replay/{races[0].room}/" not in page  # no link to a replay nobody may watch
    state = actions.connect(races[0].room, key, "socket").reply[0]
    assert state["race"]["deal"] is None
    assert (
        "Hidden while another game is played on this deal"
        in client.get(f"/race/{races[0].room}/").content.decode()
    )
    # Once the day and the other event are over, the codes show.
    DailyDeal.objects.filter(pk=todays_deal.pk).update(date=days.today() - timedelta(days=1))
    Event.objects.filter(pk=other.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    read = _doors(Client(), event, races)
    assert TODAYS_CODE in read and SECOND_DEAL in read
    assert json.loads(Client().get(f"/api/races/{races[0].room}/").content)["race"]["deal"]


def test_a_player_s_own_event_game_never_names_a_busy_deal(todays_deal):
    event = running_event(codes=[GUESTS_CODE])  # today's guests' deal
    session_key, key = new_session("Bo")
    play.join(event, key, "Bo")
    race = _played(event, key)[0]
    end_event(event)
    assert Race.objects.get(pk=race.pk).closes_at <= timezone.now()
    assert actions.connect(race.room, key, "socket").reply[0]["race"]["deal"] is None


def test_staff_adding_an_event_in_the_admin_with_today_s_deal_are_told_and_nothing_is_made(
    admin_client, todays_deal
):
    form = event_admin_form(winnable(TODAYS_CODE))
    answer = admin_client.post("/admin/game/event/add/", form)
    assert answer.status_code == 200 and not Event.objects.exists()
    assert "pick another deal" in answer.content.decode()
    form["deals-0-deal"] = winnable(SECOND_DEAL).pk
    assert admin_client.post("/admin/game/event/add/", form).status_code == 302
    assert Event.objects.get().deals.get().deal.code == SECOND_DEAL
