"""The pages that open races, the JSON API, the daily deal and /healthz."""

import datetime
import json

import pytest
from django.test import Client
from django.utils import timezone

from game import daily, identity, quickrace, races
from game.engine import replay
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal, Deal, Entry, Race

pytestmark = pytest.mark.django_db


TODAYS_CODE = "HM1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def todays_deal():
    """Today's daily deal, fixed so no test waits on the solver (the rule book's deal
    stays free to play: today's deal is locked until the day is over)."""
    return DailyDeal.objects.create(date=daily.today(), deal=Deal.for_code(TODAYS_CODE))


@pytest.fixture
def browser():
    """A client that enforces CSRF like a browser, with the cookies of a first page view."""
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client


def post(client, url, body, **extra):
    token = client.cookies["csrftoken"].value
    return client.post(
        url,
        body if isinstance(body, str | bytes) else json.dumps(body),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
        **extra,
    )


def test_the_lobby_names_todays_deal_and_sets_the_csrf_cookie(client, todays_deal):
    response = client.get("/")
    assert response.status_code == 200
    assert TODAYS_CODE not in response.content.decode()
    assert response.context["daily_date"] == todays_deal.date
    assert "csrftoken" in response.cookies


def test_play_opens_this_sessions_solo_game_on_the_deal_and_finds_it_again(client):
    first = client.get("/play/hm1-n-aaaaaab/")
    assert first.status_code == 200
    assert first.context["mode"] == "solo" and first.context["deal_code"] == RULE_BOOK_DEAL
    assert first.context["ws_path"] == f"/ws/race/{first.context['room']}/"
    assert client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"] == first.context["room"]
    assert Client().get(f"/play/{RULE_BOOK_DEAL}/").context["room"] != first.context["room"]


@pytest.mark.parametrize(
    ("code", "status"), [("HM1-N-AAAAAA", 400), ("nonsense", 400), ("HM1-C-ABCDEFG", 404)]
)
def test_a_bad_deal_code_shows_the_lobby_with_a_clear_error(client, code, status):
    response = client.get(f"/play/{code}/")
    assert response.status_code == status
    assert response.templates[0].name == "game/lobby.html"
    assert response.context["deal_error"]


def test_a_race_page_renders_the_table_and_an_unknown_room_is_404(client):
    race = races.create_race(Deal.for_code(RULE_BOOK_DEAL), "k" * 32)
    response = client.get(f"/race/{race.room.lower()}/")
    assert response.status_code == 200
    assert response.context["mode"] == "race" and response.context["room"] == race.room
    assert client.get("/race/ZZZZZZ/").status_code == 404


def test_the_daily_page_is_one_attempt_per_player_per_day(client, todays_deal):
    assert client.get("/daily/").templates[0].name == "game/daily.html"  # a name first
    started = client.post("/daily/", {"name": "Ada"})
    room = started.url.split("/")[2]
    assert Race.objects.get(room=room).entries.get().name == "Ada"
    first = client.get("/daily/")
    assert first.context["mode"] == "daily" and first.context["deal_code"] is None
    Race.objects.filter(room=first.context["room"]).update(status=Race.FINISHED)
    assert client.get("/daily/").context["room"] == first.context["room"] == room


def test_the_leaderboard_ranks_finished_daily_attempts(client, todays_deal):
    now = timezone.now()
    for index, (name, status, score) in enumerate(
        [("Bob", "resigned", 200), ("Ada", "won", 520), ("Cy", "playing", 10)]
    ):
        race = races.daily_race(todays_deal, f"{index}" * 32, name)
        Race.objects.filter(pk=race.pk).update(status=Race.RUNNING, started_at=now)
        Entry.objects.filter(race=race).update(
            status=status, score=score, finished_at=now, time_ms=60_000, ranked=status != "playing"
        )
    date = todays_deal.date.isoformat()
    page = client.get(f"/daily/{date}/")
    assert page.status_code == 200
    assert [(e["rank"], e["name"]) for e in page.context["entries"]] == [(1, "Ada"), (2, "Bob")]
    api = client.get(f"/api/daily/{date}/leaderboard/").json()
    assert api["deal_code"] is None and api["date"] == date
    assert [e["name"] for e in api["entries"]] == ["Ada", "Bob"]
    assert client.get("/daily/2001-01-01/").status_code == 404
    assert client.get("/daily/2001-13-01/").status_code == 404


def test_a_player_without_a_name_is_player_in_each_readers_language(client, todays_deal):
    client.get("/")
    races.daily_race(todays_deal, client.session[identity.PLAYER_KEY], identity.DEFAULT_NAME)
    Entry.objects.update(status=Entry.RESIGNED, finished_at=timezone.now(), ranked=True)
    url = f"/daily/{todays_deal.date.isoformat()}/"
    for lang, word in (("fr", "Joueur"), ("ro", "Jucător"), ("en", "Player")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f"<td>{word}</td>" in page


def test_an_abandoned_daily_attempt_shows_up_as_timed_out(client, todays_deal):
    client.get("/")
    race = races.daily_race(todays_deal, client.session[identity.PLAYER_KEY], "Ada")
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Race.objects.filter(pk=race.pk).update(status=Race.RUNNING, started_at=long_ago)
    Entry.objects.filter(race=race).update(status="playing")
    board = client.get(f"/api/daily/{todays_deal.date.isoformat()}/leaderboard/").json()
    assert (board["you"]["name"], board["you"]["status"]) == ("Ada", "timed_out")
    assert board["you"]["ranked"] is False and board["entries"] == []  # a guest's


def test_api_daily_names_the_deal_and_its_leaderboard(client, todays_deal):
    body = client.get("/api/daily/").json()
    iso = todays_deal.date.isoformat()
    assert body == {
        "date": iso,
        "next_deal_at": daily.next_deal_ms(),
        "url": "/daily/",
        "leaderboard": f"/api/daily/{iso}/leaderboard/",
    }


def test_creating_a_race_needs_the_csrf_token(browser):
    response = browser.post("/api/races/", "{}", content_type="application/json")
    assert response.status_code == 403


@pytest.mark.parametrize("deal", [RULE_BOOK_DEAL, "random"])
def test_creating_a_race_gives_its_room_page_and_socket(browser, deal):
    response = post(browser, "/api/races/", {"deal": deal, "name": "Ada"})
    assert response.status_code == 201
    body = response.json()
    race = Race.objects.get(room=body["room"])
    assert body == {"room": race.room, "url": f"/race/{race.room}/", "ws": f"/ws/race/{race.room}/"}
    assert race.mode == Race.RACE and list(race.entries.values_list("name", flat=True)) == ["Ada"]
    key = browser.session[identity.PLAYER_KEY]
    assert race.host_key == key
    state = browser.get(f"/api/races/{race.room}/").json()
    assert state["type"] == "state" and state["you"]["host"] is True


def test_a_solo_daily_race_from_the_api_is_the_players_one_attempt(browser):
    first = post(browser, "/api/races/", {"deal": "daily", "solo": True}).json()
    second = post(browser, "/api/races/", {"deal": "daily", "solo": True}).json()
    assert first == second
    assert Race.objects.get(room=first["room"]).mode == Race.DAILY


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("nope", 400, "bad_json"),
        ("[]", 400, "bad_json"),
        ("[" * 2000 + "]" * 2000, 400, "bad_json"),
        ({"deal": 5}, 400, "bad_field"),
        ({"deal": "random", "solo": "yes"}, 400, "bad_field"),
        ({"deal": "HM1-X-AAAAAAA"}, 400, "bad_deal"),
        ({"deal": "HM1-C-AAAAAAA"}, 404, "no_such_deal"),
        ({"deal": "random", "name": ""}, 400, "bad_name"),
        ({"deal": "random", "name": "x" * 25}, 400, "bad_name"),
        ({"deal": "random", "pad": "x" * 5000}, 413, "too_large"),
    ],
)
def test_bad_api_input_is_a_clear_4xx(browser, body, status, code):
    response = post(browser, "/api/races/", body)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_posts_are_rate_limited_per_player(browser, settings):
    settings.HALFMOON_CREATE_LIMIT = "10/3600"
    statuses = [post(browser, "/api/races/", {"deal": "random"}).status_code for _ in range(12)]
    assert statuses[:10] == [201] * 10 and statuses[-1] == 429


def test_opening_solo_games_is_rate_limited_per_player(client, settings):
    settings.HALFMOON_CREATE_LIMIT = "10/3600"
    statuses = [client.get(f"/play/{RULE_BOOK_DEAL}/").status_code for _ in range(12)]
    assert statuses[:10] == [200] * 10 and statuses[-1] == 429


def test_api_race_state_for_an_unknown_room_is_404(client):
    response = client.get("/api/races/ZZZZZZ/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_such_race"


def test_quick_race_seats_three_waiting_players_once_they_have_waited(settings):
    settings.HALFMOON_QUICK_WAIT_S = 0
    assert quickrace.poll("a" * 32, "Ada") == {"waiting": 1}
    assert quickrace.poll("b" * 32, "Bob") == {"waiting": 2}
    placed = quickrace.poll("c" * 32, "Cy")
    race = Race.objects.get(room=placed["room"])
    assert race.mode == Race.QUICK and race.status == Race.COUNTDOWN
    assert sorted(race.entries.values_list("name", flat=True)) == ["Ada", "Bob", "Cy"]
    assert quickrace.poll("a" * 32, "Ada") == {"room": race.room}


def test_quick_race_waits_for_a_third_player_and_forgets_those_who_stop_polling(settings):
    settings.HALFMOON_QUICK_WAIT_S = 0
    settings.HALFMOON_QUICK_STALE_S = 0
    assert quickrace.poll("a" * 32, "Ada") == {"waiting": 1}
    assert quickrace.poll("b" * 32, "Bob") == {"waiting": 1}


def test_a_quick_race_seat_never_collected_does_not_send_its_player_to_an_old_race(settings):
    """Ada was seated by Bob's poll but closed her tab first; days later she queues anew."""
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    assert quickrace.poll("a" * 32, "Ada") == {"waiting": 1}
    placed = quickrace.poll("b" * 32, "Bob")
    race = Race.objects.get(room=placed["room"])
    race.entries.filter(player_key="a" * 32).delete()  # no socket when the countdown ended
    Race.objects.filter(pk=race.pk).update(status=Race.FINISHED)
    assert quickrace.poll("a" * 32, "Ada") == {"waiting": 1}


def test_opening_a_deal_whose_solo_game_ran_out_of_time_deals_a_fresh_game(client):
    first = client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"]
    long_ago = timezone.now() - datetime.timedelta(hours=2)
    Race.objects.filter(room=first).update(status=Race.RUNNING, started_at=long_ago)
    again = client.get(f"/play/{RULE_BOOK_DEAL}/").context["room"]
    assert again != first and Race.objects.get(room=again).status == Race.LOBBY


def test_quick_race_over_http_answers_waiting_then_the_room(browser, settings):
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    response = post(browser, "/api/quick/", {"name": "Ada"})
    assert response.status_code == 202 and response.json() == {"waiting": 1}
    other = Client(enforce_csrf_checks=True)
    other.get("/")
    placed = post(other, "/api/quick/", {})
    assert placed.status_code == 200 and placed.json()["url"].startswith("/race/")
    assert post(browser, "/api/quick/", {}).json()["room"] == placed.json()["room"]


def test_healthz_is_503_and_says_so_when_the_channel_layer_fails(client, monkeypatch):
    class Broken:
        async def new_channel(self, prefix):
            raise ConnectionError("redis down")

    monkeypatch.setattr("game.views.get_channel_layer", lambda: Broken())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "ok", "channel_layer": "unavailable"}


def test_the_daily_deal_is_the_first_winnable_candidate_of_the_date(monkeypatch):
    date = datetime.date(2030, 1, 2)
    codes = list(daily.candidates(date))
    assert codes == list(daily.candidates(date)) and len(set(codes)) == len(codes)
    Deal.objects.create(code=codes[0], verdict="not_winnable")
    solved = []

    def fake_solve(deal):
        solved.append(deal.code)
        return "winnable"

    monkeypatch.setattr(daily, "_solve", fake_solve)
    chosen = daily.daily_deal(date)
    assert chosen.deal.code == codes[1] and solved == [codes[1]]
    assert daily.daily_deal(date) == chosen


@pytest.mark.redis
@pytest.mark.parametrize("backend", ["core.RedisChannelLayer", "pubsub.RedisPubSubChannelLayer"])
def test_healthz_passes_a_message_through_either_redis_layer(client, settings, redis_url, backend):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": f"channels_redis.{backend}", "CONFIG": {"hosts": [redis_url]}}
    }
    for _ in range(2):
        response = client.get("/healthz")
        assert response.status_code == 200, response.content
        assert response.json()["channel_layer"] == "ok"


def test_a_daily_candidate_is_analysed_and_its_verdict_stored():
    deal = Deal.for_code("HM1-N-AAAAAAB")
    assert daily._solve(deal) == "winnable"
    deal.refresh_from_db()
    assert deal.verdict == "winnable" and deal.solver_version and deal.difficulty_label
    won = replay(deal.engine_deal(), [tuple(move) for move in deal.winning_line])
    assert (won.status, won.score, won.moves) == ("won", 520, 48)


def test_a_day_without_a_proven_candidate_still_gets_a_deal(monkeypatch):
    monkeypatch.setattr(daily, "_solve", lambda deal: "unknown")
    date = datetime.date(2030, 3, 4)
    assert daily.daily_deal(date).deal.code == next(daily.candidates(date))


def test_waiting_for_a_quick_race_may_poll_every_second_for_half_a_minute(browser, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("game.credit._clock", lambda: clock[0])
    statuses = set()
    for _ in range(30):
        statuses.add(post(browser, "/api/quick/", {}).status_code)
        clock[0] += 1
    assert statuses == {202}
