"""Events (game/events/): joining late, the deals in order (the next one after a win or
a give-up), the points settled, the standings in one query and over a socket, codes
hidden until the end and shown after it with the final standings and replays, the
refusals (a bad id, too early, too late, a guest in a rated event), the recurring
schedule (never twice; every day or on chosen weekdays, its form and how it reads) and
the admin's check of a deal."""

import json
import time as time_module
from datetime import UTC, datetime, time, timedelta
from io import StringIO

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from game.base.errors import GameError
from game.engine.examples import RULE_BOOK_DEAL
from game.events import listing, live, play, schedule, standings
from game.events.points import WIN_BONUS
from game.models import Deal, Entry, Event, EventDeal, EventEntry, EventGame, EventSchedule, Race
from game.race import actions, frames
from game.staff.events import EventDealForm, EventScheduleForm
from tests.support.server import ORIGIN, new_session, win_on_clock

pytestmark = pytest.mark.django_db
SECOND_DEAL, THIRD_DEAL = "HM1-N-AAAAAAD", "HM1-N-AAAAAAE"


def winnable(code):
    deal = Deal.for_code(code)
    Deal.objects.filter(pk=deal.pk).update(verdict="winnable")
    deal.refresh_from_db()
    return deal


def running_event(minutes=30, started_ago=timedelta(minutes=5), deals=2, rated=False, codes=None):
    """An event that started `started_ago`, its first deal the rule book's (won by WIN)."""
    event = Event.objects.create(
        title="Evening race", starts_at=timezone.now() - started_ago, minutes=minutes, rated=rated
    )
    codes = codes or [RULE_BOOK_DEAL, SECOND_DEAL, THIRD_DEAL][:deals]
    for index, code in enumerate(codes):
        EventDeal.objects.create(event=event, index=index, deal=winnable(code))
    return event


def joined(event, name):
    """A player's session in the event: (browser, player key)."""
    client = Client()
    client.get("/")  # a session cookie, as a browser gets one
    session_key, key = new_session(name)
    client.cookies["sessionid"] = session_key
    answer = client.post(f"/events/{event.pk}/", {"name": name})
    assert answer.status_code == 302, answer.content
    return client, key


def end_event(event):
    """The event's 30 minutes are over (its games' closing time too, as they were made)."""
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    event.refresh_from_db()
    Race.objects.filter(event_game__entry__event=event).update(closes_at=event.ends_at)


# --- playing -----------------------------------------------------------------------------


def test_a_late_joiner_plays_the_first_deal_alone_on_the_event_clock_its_code_hidden():
    event = running_event(codes=[SECOND_DEAL, THIRD_DEAL])  # not the pages' example code
    client, key = joined(event, "Ada")
    answer = client.get(f"/events/{event.pk}/play/")
    race = Race.objects.get(event_game__entry__player_key=key)
    assert answer.status_code == 302 and answer["Location"] == f"/race/{race.room}/"
    assert (race.mode, race.deal.code, race.closes_at) == (Race.EVENT, SECOND_DEAL, event.ends_at)
    state = actions.connect(race.room, key, "socket").reply[0]
    assert state["race"]["status"] == "running" and state["race"]["deal"] is None
    race.refresh_from_db()
    assert abs(race.ends_at - event.ends_at) < timedelta(seconds=1)
    page = client.get(f"/race/{race.room}/").content.decode()
    event_page = client.get(f"/events/{event.pk}/").content.decode()
    for shown in (page, event_page, json.dumps(state)):
        assert SECOND_DEAL not in shown and THIRD_DEAL not in shown
    assert "Hidden until the event is over" in page
    assert client.get(f"/events/{event.pk}/play/")["Location"] == f"/race/{race.room}/"


def test_a_win_leads_to_the_next_deal_and_is_settled_with_its_bonus():
    event = running_event()
    client, key = joined(event, "Ada")
    client.get(f"/events/{event.pk}/play/")
    first = Race.objects.get(event_game__entry__player_key=key)
    won = win_on_clock(first, key)
    assert won.status == Entry.WON
    second = play.game_to_play(event, key)
    assert second.deal.code == SECOND_DEAL and second.pk != first.pk
    entry = EventEntry.objects.get(event=event, player_key=key)
    assert (entry.points, entry.wins) == (won.score + WIN_BONUS, 1)
    assert EventGame.objects.get(race=first).points == won.score + WIN_BONUS


def test_a_game_given_up_leads_to_the_next_deal_and_none_follows_the_last():
    event = running_event()
    _client, key = joined(event, "Bo")
    for _ in range(2):
        race = play.game_to_play(event, key)
        actions.connect(race.room, key, "socket")
        actions.move(race.room, key, 1, ["P1", "P8"]) if race.deal.code == RULE_BOOK_DEAL else None
        actions.resign(race.room, key)
    assert play.game_to_play(event, key) is None
    entry = EventEntry.objects.get(event=event, player_key=key)
    assert entry.games.count() == 2 and entry.wins == 0


def test_standings_count_the_game_in_play_and_order_players_by_points():
    event = running_event()
    _c1, ada = joined(event, "Ada")
    _c2, bo = joined(event, "Bo")
    race = play.game_to_play(event, ada)
    actions.connect(race.room, ada, "socket")
    actions.move(race.room, ada, 1, ["P1", "P8"])
    play.game_to_play(event, bo)
    frame, rows = standings.tick(event.pk)
    assert [row[2] for row in rows] == ["Ada", "Bo"]
    assert frame["top"][0]["points"] == Entry.objects.get(race=race).score > 0
    assert frame["players"] == 2 and frame["over"] is False
    mine = frames.standings_you(rows, 1, standings.NEAR)
    assert mine["rank"] == 2 and [line["name"] for line in mine["near"]] == ["Ada", "Bo"]


# --- the end -----------------------------------------------------------------------------


def test_after_the_end_codes_final_standings_and_replays_show_and_joining_is_refused():
    event = running_event()
    client, key = joined(event, "Ada")
    client.get(f"/events/{event.pk}/play/")
    first = Race.objects.get(event_game__entry__player_key=key)
    win_on_clock(first, key)
    stranger = Client()
    player = Entry.objects.get(race=first).pk
    assert stranger.get(f"/replay/{first.room}/{player}/").status_code == 404  # not yet
    end_event(event)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert RULE_BOOK_DEAL in page and SECOND_DEAL in page
    assert f"/replay/{first.room}/{player}/" in page
    assert stranger.get(f"/replay/{first.room}/{player}/").status_code == 200
    assert EventEntry.objects.get(player_key=key).rank == 1
    refused = Client().post(f"/events/{event.pk}/", {"name": "Late"})
    assert refused.status_code == 409
    assert "This event is over" in refused.content.decode()
    assert client.get(f"/events/{event.pk}/play/").status_code == 409


def test_a_game_left_in_play_counts_what_it_had_when_the_event_ended():
    event = running_event()
    _client, key = joined(event, "Ada")
    race = play.game_to_play(event, key)
    actions.connect(race.room, key, "socket")
    actions.move(race.room, key, 1, ["P1", "P8"])
    score = Entry.objects.get(race=race).score
    end_event(event)
    standings.finish(event)
    entry = EventEntry.objects.get(player_key=key)
    assert (entry.points, entry.rank) == (score, 1)


def test_profiles_show_events_played_and_the_best_rank():
    event = running_event()
    client, key = joined(event, "Ada")
    play.game_to_play(event, key)
    end_event(event)
    standings.finish(event)
    page = client.get("/me/").content.decode()
    assert "Events played" in page and "Best event rank" in page


# --- refusals ----------------------------------------------------------------------------


def test_a_bad_event_id_is_a_404():
    assert Client().get("/events/987654/").status_code == 404
    assert Client().get("/events/987654/play/").status_code == 404
    with pytest.raises(GameError) as refused:
        play.event(987654)
    assert refused.value.code == "no_such_event"


def test_an_event_not_started_takes_entries_but_no_game():
    event = running_event(started_ago=-timedelta(hours=1))
    client, key = joined(event, "Ada")
    answer = client.get(f"/events/{event.pk}/play/")
    assert answer.status_code == 409 and "has not started yet" in answer.content.decode()
    assert not EventGame.objects.exists()


def test_a_rated_event_refuses_a_guest():
    event = running_event(rated=True)
    answer = Client().post(f"/events/{event.pk}/", {"name": "Guest"})
    assert answer.status_code == 403
    with pytest.raises(GameError) as refused:
        play.join(event, "g" * 32, "Guest")
    assert refused.value.code == "event_needs_account"


def test_a_bad_name_is_refused_and_nothing_is_joined():
    event = running_event()
    answer = Client().post(f"/events/{event.pk}/", {"name": "x" * 40})
    assert answer.status_code == 400 and not EventEntry.objects.exists()


# --- pages and lists ---------------------------------------------------------------------


def test_the_lists_and_the_lobby_show_running_upcoming_and_past_events():
    running = running_event()
    upcoming = running_event(started_ago=-timedelta(hours=2))
    past = running_event(started_ago=timedelta(hours=3))
    found = listing.lists()
    assert [e.pk for e in found["running"]] == [running.pk]
    assert [e.pk for e in found["upcoming"]] == [upcoming.pk]
    assert [e.pk for e in found["past"]] == [past.pk]
    page = Client().get("/events/").content.decode()
    assert all(f"/events/{e.pk}/" in page for e in (running, upcoming, past))
    lobby = Client().get("/").content.decode()
    assert f"/events/{running.pk}/" in lobby and f"/events/{upcoming.pk}/" in lobby


# --- staff -------------------------------------------------------------------------------


def test_the_admin_refuses_a_deal_not_proven_winnable():
    event = running_event(started_ago=-timedelta(hours=1))
    unknown = Deal.for_code("HM1-N-AAAAAAF")
    refused = Deal.objects.create(code="HM1-N-AAAAAAH", verdict="not_winnable")
    for deal, code in ((unknown, "unconfirmed"), (refused, "not_winnable")):
        form = EventDealForm({"index": 5, "deal": deal.pk}, instance=EventDeal(event=event))
        assert not form.is_valid() and form.errors.as_data()["deal"][0].code == code
    good = EventDealForm({"index": 5, "deal": winnable("HM1-N-AAAAAAJ").pk})
    assert good.is_valid(), good.errors


def test_a_schedule_creates_its_coming_events_once(monkeypatch):
    deal = winnable(RULE_BOOK_DEAL)
    monkeypatch.setattr(schedule, "winnable_deals", lambda count: [deal])
    at = (timezone.now() + timedelta(hours=1)).time().replace(second=0, microsecond=0)
    EventSchedule.objects.create(title="Nightly", at=at, minutes=20, deals=1)
    out = StringIO()
    call_command("daily_upkeep", "--days", "0", "--workers", "1", stdout=out, stderr=StringIO())
    assert "2 scheduled events created" in out.getvalue()  # in an hour, and tomorrow's
    assert schedule.create_coming(days=2) == 0
    assert Event.objects.filter(schedule__title="Nightly").count() == 2


def test_a_saturday_schedule_creates_saturday_events_only(monkeypatch):
    deal = winnable(RULE_BOOK_DEAL)
    monkeypatch.setattr(schedule, "winnable_deals", lambda count: [deal])
    friday_noon = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    EventSchedule.objects.create(title="Arena", at=time(18, 0), weekdays="5", deals=1)
    EventSchedule.objects.create(title="Nightly", at=time(20, 0), deals=1)
    assert schedule.create_coming(days=7, now=friday_noon) == 1 + 7
    arena = Event.objects.filter(schedule__title="Arena")
    assert [e.starts_at for e in arena] == [datetime(2026, 12, 5, 18, 0, tzinfo=UTC)]
    nightly = Event.objects.filter(schedule__title="Nightly").order_by("starts_at")
    assert [e.starts_at.day for e in nightly] == [4, 5, 6, 7, 8, 9, 10]


def test_the_daily_job_creates_a_schedule_s_events_on_its_weekdays_only(monkeypatch):
    deal = winnable(RULE_BOOK_DEAL)
    monkeypatch.setattr(schedule, "winnable_deals", lambda count: [deal])
    first = (timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
    second = first + timedelta(days=1)  # the two starts of the daily job's two days
    days = {str(first.weekday()), str(second.weekday())}
    others = "".join(d for d in "0123456" if d not in days)
    EventSchedule.objects.create(title="Not these days", at=first.time(), weekdays=others)
    EventSchedule.objects.create(
        title="Second only", at=first.time(), weekdays=str(second.weekday())
    )
    out = StringIO()
    call_command("daily_upkeep", "--days", "0", "--workers", "1", stdout=out, stderr=StringIO())
    assert "1 scheduled events created" in out.getvalue()
    assert [(e.schedule.title, e.starts_at) for e in Event.objects.all()] == [
        ("Second only", second)
    ]


def test_a_schedule_says_its_days_in_the_reader_s_language():
    arena = EventSchedule(title="Arena", at=time(18, 0), weekdays="5")
    assert str(arena) == "Arena every Saturday at 18:00 UTC"
    assert EventSchedule(title="Nightly", at=time(20, 0)).when() == "every day at 20:00 UTC"
    weekdays = EventSchedule(title="Club", at=time(19, 30), weekdays="024")
    assert weekdays.when() == "every Monday, Wednesday and Friday at 19:30 UTC"
    said = {}
    for language in ("fr", "ca", "ro"):
        with translation.override(language):
            said[language] = (arena.when(), weekdays.when())
    assert said == {
        "fr": ("chaque samedi à 18:00 UTC", "chaque lundi, mercredi et vendredi à 19:30 UTC"),
        "ca": (
            "cada dissabte a les 18:00 UTC",
            "cada dilluns, dimecres i divendres a les 19:30 UTC",
        ),
        "ro": (
            "în fiecare sâmbătă la 18:00 UTC",
            "în fiecare luni, miercuri și vineri la 19:30 UTC",
        ),
    }


def test_staff_choose_a_schedule_s_weekdays_in_the_admin(admin_client):
    form = {"title": "Weekend", "at": "18:00", "minutes": 30, "deals": 3, "active": "on"}
    answer = admin_client.post("/admin/game/eventschedule/add/", {**form, "weekdays": ["6", "5"]})
    assert answer.status_code == 302, answer.content
    weekend = EventSchedule.objects.get(title="Weekend")
    assert weekend.weekdays == "56"
    page = admin_client.get(f"/admin/game/eventschedule/{weekend.pk}/change/").content.decode()
    assert page.count("checked") == 2 + 1  # Saturday, Sunday, and "active"
    listed = admin_client.get("/admin/game/eventschedule/").content.decode()
    assert "every Saturday and Sunday at 18:00 UTC" in listed
    assert not EventScheduleForm({**form, "title": "Never", "weekdays": []}).is_valid()
    assert EventScheduleForm({**form, "title": "Daily"}).fields["weekdays"].initial == list(
        "0123456"
    )


# --- the standings socket ----------------------------------------------------------------


async def _socket(event_id, session_key=None):
    from halfmoon_site.asgi import application

    headers = [ORIGIN]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/event/{event_id}/", headers)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


async def _frame(socket, kind):
    while True:
        frame = json.loads(await socket.receive_from(timeout=5))
        if frame["type"] == kind:
            return frame


@pytest.mark.django_db(transaction=True)
async def test_players_and_spectators_get_the_standings_and_a_player_their_own_line(settings):
    settings.HALFMOON_EVENT_TICK_S = 0.1
    event = await database_sync_to_async(running_event)()
    session_key, key = await database_sync_to_async(new_session)("Ada")
    await database_sync_to_async(play.join)(event, key, "Ada")
    player, spectator = await _socket(event.pk, session_key), await _socket(event.pk)
    seen = await _frame(player, "standings")
    assert [line["name"] for line in seen["top"]] == ["Ada"]
    mine = await _frame(player, "standings_you")
    assert mine["rank"] == 1 and mine["players"] == 1
    watched = await _frame(spectator, "standings")
    assert watched["players"] == 1
    for _ in range(3):  # a spectator has no line of its own
        assert json.loads(await spectator.receive_from(timeout=5))["type"] == "standings"
    await player.disconnect()
    await spectator.disconnect()
    assert not live.fanout.watched(live.stream(event.pk))


async def test_a_socket_for_no_event_is_closed_4404():
    from halfmoon_site.asgi import application

    socket = WebsocketCommunicator(application, "/ws/event/987654/", [ORIGIN])
    await socket.connect(timeout=5)
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}


async def _closed_with(socket):
    """The `error` code a refused socket was told, and the code it was closed with."""
    said = None
    while True:
        out = await socket.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return said, out["code"]
        frame = json.loads(out["text"])
        if frame["type"] == "error":
            said = frame["code"]


@pytest.mark.django_db(transaction=True)
async def test_the_standings_socket_counts_in_a_session_s_socket_limit(settings):
    settings.HALFMOON_SOCKETS_PER_SESSION = 1
    event = await database_sync_to_async(running_event)()
    session_key, _ = await database_sync_to_async(new_session)("Ada")
    first = await _socket(event.pk, session_key)
    second = await _socket(event.pk, session_key)
    assert await _closed_with(second) == ("too_many_sockets", 4429)
    await first.disconnect()
    again = await _socket(event.pk, session_key)  # a closed tab gave its place back
    await _frame(again, "standings")
    await again.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_standings_socket_that_floods_is_closed(settings):
    settings.HALFMOON_FRAME_RATE, settings.HALFMOON_FRAME_BURST = 0.001, 3
    event = await database_sync_to_async(running_event)()
    spectator = await _socket(event.pk)
    for _ in range(5):
        await spectator.send_to(text_data='{"type":"ping"}')
    said, code = await _closed_with(spectator)
    assert (said, code) == ("rate_limited", 4008)


def test_joins_past_the_create_limit_are_refused_429_and_make_no_entry(settings):
    settings.HALFMOON_CREATE_ADDRESS_LIMIT = "2/60"
    event = running_event()
    answers = []
    for name in ("Ada", "Bea", "Cy"):  # three visitors, one address: a script's cookies
        answers.append(Client().post(f"/events/{event.pk}/", {"name": name}).status_code)
    assert answers == [302, 302, 429]
    assert sorted(EventEntry.objects.filter(event=event).values_list("name", flat=True)) == [
        "Ada",
        "Bea",
    ]


@pytest.mark.django_db(transaction=True)
async def test_the_standings_socket_reads_only_a_ping_frame_and_answers_it_with_the_time():
    event = await database_sync_to_async(running_event)()
    spectator = await _socket(event.pk)
    refused = {
        "x" * (1 << 20) + '"ping"': "too_large",  # a MiB of text that names a ping
        'not json "ping"': "bad_json",
        '{"type":"move","note":"ping"}': "unknown_type",
        '["ping"]': "bad_json",
    }
    for text, code in refused.items():
        await spectator.send_to(text_data=text)
        answer = await _answer(spectator)
        assert (answer["type"], answer["code"]) == ("error", code)
    asked = int(time_module.time() * 1000)
    await spectator.send_to(text_data='{"type":"ping"}')
    pong = await _answer(spectator)
    answered = int(time_module.time() * 1000)
    assert pong == {"type": "pong", "now": pong["now"]}  # the protocol's, as schema.Pong
    assert asked <= pong["now"] <= answered  # the server's clock, in ms, when it answered
    await spectator.disconnect()


async def _answer(socket):
    """The next frame that answers one sent (standings go on arriving meanwhile)."""
    while True:
        frame = json.loads(await socket.receive_from(timeout=5))
        if not frame["type"].startswith("standings"):
            return frame


def test_a_newcomers_first_game_settles_nothing_and_writes_its_entry_once():
    event = running_event()
    _, ada = joined(event, "Ada")
    with CaptureQueriesContext(connection) as queries:
        race = play.game_to_play(event, ada)
    entry_updates = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "game_evententry"')]
    assert race is not None and len(entry_updates) == 1  # its current game, nothing settled
    assert EventEntry.objects.get(player_key=ada).current == race


def test_a_guests_join_reads_its_entry_and_account_once():
    event = running_event()
    client = Client()
    client.get("/")
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(f"/events/{event.pk}/", {"name": "Ada"})
    assert answer.status_code == 302 and EventEntry.objects.filter(event=event).count() == 1
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len([sql for sql in reads if 'FROM "game_evententry"' in sql]) == 1
    assert len([sql for sql in reads if 'FROM "game_account"' in sql]) == 1
