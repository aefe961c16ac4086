"""
The fair-play rule book: what an attacker with scripts, many cookies and the
project's own solver can no longer do, and what a regular player gets.
"""

import datetime
import json
import re
import threading

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.utils import timezone

from game.base import days
from game.daily import day_board
from game.deals import daily
from game.engine.examples import RULE_BOOK_DEAL
from game.habits import streaks
from game.lobby import alone
from game.models import DailyDeal, Deal, Entry, Move, Race
from game.players import accounts, identity
from game.race import actions
from game.results import fairplay, records
from tests.support.server import (
    OLD_ENOUGH,
    WIN,
    Socket,
    close_all,
    guest_key,
    move_clock,
    new_session,
    signed_up,
    win_on_clock,
)

from .test_postgame import forget_questions

pytestmark = pytest.mark.django_db(transaction=True)
TODAYS_CODE, GUESTS_CODE = "HM1-N-QZQZQZQ", "HM1-N-QZQZQZG"
"""Today's ranked and guests' deals; not the rule book's: that one is the example code
on every form."""


@pytest.fixture(autouse=True)
def todays_deal():
    return DailyDeal.objects.create(
        date=days.today(), deal=Deal.for_code(TODAYS_CODE), guest_deal=Deal.for_code(GUESTS_CODE)
    )


@pytest.fixture
def rule_book_today(todays_deal):
    """Today's deal is the rule book's, so its known 48-move win can be played."""
    todays_deal.deal = Deal.for_code(RULE_BOOK_DEAL)
    todays_deal.save()
    return todays_deal


def browser():
    client = Client()
    client.get("/")
    guest_key(client)
    return client


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def account(name, age=OLD_ENOUGH):
    """A player with an account (`age` old) and a logged-in browser."""
    client = signed_up(name, age)
    return client, User.objects.get(username=name)


# --- 1. today's daily code is never shown before its day is over ---------------------


@pytest.mark.parametrize("who", ["guest", "account"])
def test_todays_daily_codes_appear_in_no_page_or_api_answer_before_the_day_ends(who):
    if who == "guest":
        client = browser()
        room = client.post("/daily/", {"name": "Ada"}).url.split("/")[2]
    else:
        client = account("ada")[0]
        room = client.post("/daily/", follow=True).context["room"]  # "Play": its attempt
    race = Race.objects.get(room=room)
    actions.connect(room, client.session[identity.PLAYER_KEY], "socket-1")
    actions.resign(room, client.session[identity.PLAYER_KEY])
    today = days.today().isoformat()
    seen = [
        client.get(url).content.decode()
        for url in [
            "/",
            "/daily/",
            f"/race/{room}/",
            f"/daily/{today}/",
            "/me/",
            "/api/daily/",
            f"/api/races/{room}/",
            f"/api/replays/{room}/{race.entries.get().pk}/analysis/",
            f"/replay/{room}/{race.entries.get().pk}/",
            f"/api/replays/{room}/{race.entries.get().pk}/",
            f"/api/daily/{today}/leaderboard/",
            f"/api/daily/{today}/ghost/",
        ]
    ]
    assert race.deal.code == (GUESTS_CODE if who == "guest" else TODAYS_CODE)
    assert [page for page in seen if TODAYS_CODE in page or GUESTS_CODE in page] == []


def test_yesterdays_daily_codes_are_shown_once_its_day_is_over(monkeypatch, todays_deal):
    client = browser()
    room = client.post("/daily/", {"name": "Ada"}).url.split("/")[2]
    tomorrow = days.today() + datetime.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)
    DailyDeal.objects.create(date=tomorrow, deal=Deal.for_code("HM1-N-AAAAAAC"))
    assert GUESTS_CODE in client.get(f"/race/{room}/").content.decode()  # the guest's own
    assert TODAYS_CODE in client.get(f"/daily/{todays_deal.date.isoformat()}/").content.decode()


async def test_todays_daily_codes_are_in_no_frame_of_the_attempt(todays_deal):
    def arrange():
        todays_deal.guest_deal = Deal.for_code(RULE_BOOK_DEAL)  # the guest's, to play
        todays_deal.save()
        session_key, key = new_session("Ada")
        return session_key, alone.daily_race(todays_deal, key, "Ada")

    session_key, race = await database_sync_to_async(arrange)()
    socket = Socket(race.room, session_key)
    await socket.open()
    await socket.request("move", seq=1, slots=WIN[0])
    await socket.expect("moved")
    await socket.request("resign")
    await socket.expect("finished")
    await socket.request("sync")
    await socket.expect("state")
    shown = [json.dumps(frame) for frame in socket.seen]
    assert shown and not [f for f in shown if RULE_BOOK_DEAL in f or TODAYS_CODE in f]
    await close_all(socket)


OTHER_CODE = "HM1-N-AAAAAAE"
"""A valid code that is no daily deal."""


def skeleton(value):
    """A JSON value's shape: the keys of its objects and the types of its values."""
    if isinstance(value, dict):
        return {key: skeleton(item) for key, item in value.items()}
    if isinstance(value, list):
        return [skeleton(value[0])] if value else []
    return type(value).__name__


def shape(answer, *secrets):
    """What may tell one typed code from another in an answer: its status, the headers
    that matter, and its body: a JSON answer's shape, or a page with the code and room
    made placeholders (and the tokens that differ on every page)."""
    headers = {name: answer.headers.get(name) for name in ("Content-Type", "Cache-Control")}
    found = (answer.status_code, headers, sorted(answer.headers.keys()))
    if answer.headers["Content-Type"] == "application/json":
        return (*found, skeleton(answer.json()))
    body = answer.content.decode()
    for secret, placeholder in zip(secrets, ("CODE", "ROOM"), strict=True):
        body = body.replace(secret, placeholder)
    return (*found, re.sub(r'(value|nonce|content)="[A-Za-z0-9+/=_-]{20,}"', "TOKEN", body))


def typed_code_answers(code):
    """Everything a stranger gets around a typed code: the /play/ page, a solo game and a
    race through the API, the solo game's replay and analysis once over, and the day's
    ghost offer after it. {door: (shape, what it says of the deal)}"""
    client = browser()
    key = client.session[identity.PLAYER_KEY]
    page = client.get(f"/play/{code.lower()}/")
    room = page.context["room"]
    solo = post(client, "/api/races/", {"deal": code, "solo": True})
    race = post(client, "/api/races/", {"deal": code, "name": "Ada"}).json()["room"]
    shown = client.get(f"/api/races/{race}/")
    actions.connect(room, key, "socket-1")
    actions.resign(room, key)
    replay = f"/api/replays/{room}/{Entry.objects.get(race__room=room).pk}/"
    context = page.context
    return {
        "play": (shape(page, code, room), (context["deal_code"] == code, context["deal_label"])),
        "solo": (shape(solo), solo.json()["room"] == room),
        "race": (shape(shown), shown.json()["race"]["deal"] == code),
        "replay": (shape(client.get(replay)), client.get(replay).json()["deal"] == code),
        "analysis": (shape(client.get(f"{replay}analysis/")), None),
        "ghost": client.get(f"/api/daily/{days.today().isoformat()}/ghost/").json(),
    }


def test_a_typed_code_that_is_todays_deal_answers_like_any_other_code():
    """Knowing a code is knowing its deal (the dealing algorithm is public): refusing
    today's only told a guesser which code was today's."""
    forget_questions()  # no analysis answer left over in Redis for either deal
    todays, other = typed_code_answers(TODAYS_CODE), typed_code_answers(OTHER_CODE)
    assert todays == other
    assert todays["play"][1] == (True, None)  # a plain practice game: no daily label
    assert todays["replay"][1] is todays["race"][1] is todays["solo"][1] is True  # code shown
    assert todays["ghost"]["best"] is None  # the game typed is no game of the day's
    statuses = [todays[door][0][0] for door in ("play", "solo", "race", "replay", "analysis")]
    assert statuses == [200, 201, 200, 200, 202]  # the analysis: computing, for both


def test_a_race_on_the_daily_deal_is_refused_whoever_asks():
    answer = post(browser(), "/api/races/", {"deal": "daily"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "daily_locked")


def test_past_daily_deals_are_open_for_practice_and_labelled_so(todays_deal):
    yesterday = days.today() - datetime.timedelta(days=1)
    DailyDeal.objects.create(date=yesterday, deal=Deal.for_code("HM1-N-AAAAAAD"))
    page = browser().get("/play/HM1-N-AAAAAAD/")
    assert page.status_code == 200 and page.context["deal_code"] == "HM1-N-AAAAAAD"
    assert str(page.context["deal_label"]).startswith("Practice · daily deal of")


# --- 1b. no look at the ranked deal before the ranked attempt -------------------------


def ranked_attempt_of(name):
    """An account's finished attempt at today's ranked deal (a ranked result): its Entry."""
    client, _ = account(name)
    room = client.post("/daily/", follow=True).context["room"]
    actions.connect(room, client.session[identity.PLAYER_KEY], "socket-1")
    actions.resign(room, client.session[identity.PLAYER_KEY])
    return Entry.objects.select_related("race__deal").get(race__room=room)


def doors(client, leader):
    """What this browser gets at every door to today's ranked deal but the ranked attempt
    itself: (status, error code) of each answer, and the deals of the races it got."""
    today = days.today().isoformat()
    replay = f"{leader.race.room}/{leader.pk}/"

    def code(answer):
        return answer.status_code, answer.json().get("error", {}).get("code")

    got = [
        post(client, "/api/races/", {"deal": "daily", "solo": True}).json()["room"],
        client.post("/daily/", follow=True).context.get("room"),  # a guest's needs a name
    ]
    board = client.get(f"/api/daily/{today}/leaderboard/").json()
    answers = {
        "race": code(post(client, "/api/races/", {"deal": "daily"})),
        "ghost": client.get(f"/api/daily/{today}/ghost/").json()["open"],
        "leader": code(post(client, f"/api/daily/{today}/ghost/", {"of": "leader"})),
        "best": code(post(client, f"/api/daily/{today}/ghost/", {"of": "best"})),
        "replay": code(client.get(f"/api/replays/{replay}")),
        "replay page": client.get(f"/replay/{replay}").status_code,
        "analysis": code(client.get(f"/api/replays/{replay}analysis/")),
        "replay link": [row["replay"] for row in board["entries"] if row.get("replay")],
    }
    rooms = {room for room in got if room}
    return answers, {race.deal.code for race in Race.objects.filter(room__in=rooms)}


CLOSED = {
    "race": (403, "daily_locked"),
    "ghost": False,
    "leader": (409, "attempt_first"),
    "best": (409, "attempt_first"),
    "replay": (404, "not_found"),
    "replay page": 404,
    "analysis": (404, "not_found"),
    "replay link": [],
}


def test_no_guest_cookie_opens_a_door_to_the_ranked_deal():
    leader = ranked_attempt_of("ada")
    for _ in range(3):  # any number of cookies: each gets the guests' deal, no more
        client = browser()
        client.post("/daily/", {"name": "Sock"})
        assert doors(client, leader) == (CLOSED, {GUESTS_CODE})


def test_a_second_account_sees_the_ranked_deal_only_through_its_own_attempt():
    leader = ranked_attempt_of("ada")
    bob, _ = account("bob")
    answers, deals = doors(bob, leader)  # its attempt begins: the ranked deal, its own
    assert answers == CLOSED and deals == {TODAYS_CODE}


def test_a_guest_who_signs_up_keeps_the_guests_deal_as_the_days_attempt():
    leader = ranked_attempt_of("ada")
    client = browser()
    room = client.post("/daily/", {"name": "Sock"}).url.split("/")[2]
    client.post(
        "/accounts/signup/",
        {"username": "sock", "password1": "moon-race-42!", "password2": "moon-race-42!"},
    )
    User.objects.filter(username="sock").update(date_joined=timezone.now() - OLD_ENOUGH)
    actions.connect(room, client.session[identity.PLAYER_KEY], "socket-1")
    actions.resign(room, client.session[identity.PLAYER_KEY])
    assert doors(client, leader) == (CLOSED, {GUESTS_CODE})  # the day's one attempt, used
    assert not Entry.objects.get(race__room=room).ranked
    ghost = client.get(f"/api/daily/{days.today().isoformat()}/ghost/").json()
    assert ghost["closed_today"] is True


@pytest.mark.parametrize(
    "lang, note",
    [
        ("en", "an account ranks once it is 24 hours old"),
        ("fr", "un compte est classé une fois qu’il a 24 heures"),
        ("ca", "un compte es classifica quan té 24 hores"),
        ("ro", "un cont este clasat după ce are 24 de ore"),
    ],
)
def test_an_account_too_new_to_rank_plays_the_guests_deal_and_is_told_so(lang, note):
    client, user = account("fresh", age=datetime.timedelta(hours=23))
    page = client.post("/daily/", HTTP_ACCEPT_LANGUAGE=lang, follow=True)
    race = Race.objects.get(room=page.context["room"])
    assert race.deal.code == GUESTS_CODE and note in page.content.decode()
    key = client.session[identity.PLAYER_KEY]
    actions.connect(race.room, key, "socket-1")
    actions.resign(race.room, key)
    entry = Entry.objects.get(race=race)
    assert entry.user == user and entry.review == Entry.CLEAN and not entry.ranked
    ghost = client.get(f"/api/daily/{days.today().isoformat()}/ghost/").json()
    assert (ghost["open"], ghost["closed_today"]) == (False, True)


def test_the_age_to_rank_is_a_setting(settings):
    settings.HALFMOON_RANKED_MIN_AGE_H = 2
    client, _ = account("older", age=datetime.timedelta(hours=3))
    page = client.post("/daily/", follow=True)
    assert Race.objects.get(room=page.context["room"]).deal.code == TODAYS_CODE
    assert page.context["unranked_note"] is None


def test_five_new_accounts_from_one_address_rank_nowhere_today(rule_book_today):
    for name in ("s1", "s2", "s3", "s4", "s5"):
        client, _ = account(name, age=datetime.timedelta(minutes=5))
        assert client.post("/daily/", follow=True).context["unranked_note"]
    board = browser().get(f"/api/daily/{days.today().isoformat()}/leaderboard/").json()
    assert board["entries"] == []
    assert not Entry.objects.filter(race__deal=rule_book_today.deal).exists()


# --- 2. hidden deals in races ---------------------------------------------------------


def test_a_random_race_shows_its_deal_only_once_finished_and_a_typed_code_always():
    client = browser()
    hidden = post(client, "/api/races/", {"deal": "random", "name": "Ada"}).json()["room"]
    typed = post(client, "/api/races/", {"deal": "HM1-N-AAAAAAE", "name": "Ada"}).json()["room"]
    assert client.get(f"/api/races/{hidden}/").json()["race"]["deal"] is None
    assert client.get(f"/race/{hidden}/").context["deal_code"] is None
    assert client.get(f"/api/races/{typed}/").json()["race"]["deal"] == "HM1-N-AAAAAAE"
    Race.objects.filter(room=hidden).update(status=Race.FINISHED)
    code = Race.objects.get(room=hidden).deal.code
    assert client.get(f"/api/races/{hidden}/").json()["race"]["deal"] == code


def test_every_quick_race_hides_its_deal(settings):
    from game.lobby import quick

    settings.HALFMOON_QUICK_WAIT_S = 0
    for key in ("a" * 32, "b" * 32, "c" * 32):
        placed = quick.poll(key, "P")
    race = Race.objects.get(room=placed["room"])
    assert (
        race.deal_hidden and Client().get(f"/api/races/{race.room}/").json()["race"]["deal"] is None
    )


# --- 3. result checks -----------------------------------------------------------------


def _play_daily(user_client, clock=None):
    """Win today's deal with the rule book's 48 moves, stored on `clock` (seconds from
    the start of each; None: as fast as a script plays them)."""
    key = user_client.session[identity.PLAYER_KEY]
    return win_on_clock(alone.daily_race(daily.daily_deal(), key, "x"), key, clock)


def test_a_scripted_48_move_win_in_under_a_second_is_flagged_and_never_ranked(rule_book_today):
    bot, _ = account("bot")
    entry = _play_daily(bot)
    assert entry.status == Entry.WON and entry.review == Entry.FLAGGED and not entry.ranked
    board = bot.get(f"/api/daily/{days.today().isoformat()}/leaderboard/").json()
    assert board["entries"] == []
    assert board["you"]["flagged"] and not board["you"]["ranked"]  # the player still sees it


def test_a_human_paced_win_is_ranked_with_its_undos_shown(rule_book_today):
    ada, _ = account("ada")
    entry = _play_daily(ada, move_clock(3))
    assert entry.review == Entry.CLEAN and entry.ranked and entry.undos == 0
    board = Client().get(f"/api/daily/{days.today().isoformat()}/leaderboard/").json()
    assert [(e["rank"], e["name"], e["undos"]) for e in board["entries"]] == [(1, "ada", 0)]


@pytest.mark.parametrize(
    "clock",
    [move_clock(0.45, (1.0,)), move_clock(0.45, (0.8, 1.2, 1.0, 0.9, 1.1))],
    ids=["steady 0.45 s", "0.45 s, jittered 20 %"],
)
def test_a_solver_bot_paced_at_0_45_s_a_move_is_flagged_and_never_ranked(rule_book_today, clock):
    """The issue's attack: 48 moves in 21.6 s passed the old checks (a median gap of
    0.45 s, more than 20 s); its steady clock and its first move without a look do not."""
    bot, _ = account("pacer")
    entry = _play_daily(bot, clock)
    tempo = fairplay.tempo_of(entry)
    assert fairplay.median_gap_s(tempo) >= 0.4 and entry.time_ms > 20_000  # the old checks
    assert {"steady", "no_look"} <= set(fairplay.reasons(tempo))
    assert entry.review == Entry.FLAGGED and not entry.ranked


def test_a_win_on_the_solvers_own_line_is_flagged_even_at_a_persons_pace(rule_book_today):
    Deal.objects.filter(pk=rule_book_today.deal_id).update(winning_line=WIN)  # its analysis
    ada, _ = account("ada")
    entry = _play_daily(ada, move_clock(3))
    assert fairplay.reasons(fairplay.tempo_of(entry)) == ["solver_line"]
    assert entry.review == Entry.FLAGGED and not entry.ranked


def test_a_persons_clock_passes_every_check_and_each_check_says_its_reason(settings):
    played = [(at, Move.MOVE, slots) for at, slots in zip(move_clock(2), WIN, strict=True)]
    assert fairplay.reasons(fairplay.tempo(played, 96.0)) == []
    peeking = []
    for at, kind, slots in played:  # every move tried on another pile first, then undone
        peeking += [(at - 0.4, Move.MOVE, ["P1", "P2"]), (at - 0.2, Move.UNDO, [])]
        peeking.append((at, kind, slots))
    peeks = fairplay.tempo(peeking, 96.0)
    assert peeks.peeks == 48 and fairplay.final_line(peeking) == fairplay.final_line(played)
    assert "peeks" in fairplay.reasons(peeks)
    no_look = fairplay.tempo([(at - 1.0, kind, slots) for at, kind, slots in played], 95.0)
    assert no_look.first_s == pytest.approx(0.2) and fairplay.reasons(no_look) == []  # it paused
    settings.HALFMOON_FLAG_PAUSE_S = 10  # no gap of 10 s: then a first move at 0.2 s flags
    assert fairplay.reasons(no_look) == ["no_look"]


def test_staff_confirm_a_flagged_result_and_the_log_says_who_and_why(admin_user, rule_book_today):
    bot, _ = account("fast")
    entry = _play_daily(bot)
    fairplay.decide(entry, admin_user, Entry.CONFIRMED, "watched the replay: a real speedrun")
    entry.refresh_from_db()
    assert entry.ranked and entry.reviews.get().staff == admin_user


def test_wins_rank_by_time_then_undos_then_the_rest_by_score():
    now = timezone.now()
    day = daily.daily_deal()
    made = {}
    for name, status, ms, undos, score in [
        ("slow", "won", 90_000, 0, 520),
        ("undo", "won", 60_000, 3, 520),
        ("fast", "won", 60_000, 0, 520),
        ("high", "resigned", None, 0, 300),
        ("low", "resigned", None, 0, 100),
    ]:
        user = User.objects.create(username=name, date_joined=timezone.now() - OLD_ENOUGH)
        accounts.claim(user, name.ljust(32, "k"))
        race = alone.daily_race(day, name.ljust(32, "k"), name)
        Entry.objects.filter(race=race).update(
            status=status, time_ms=ms, undos=undos, score=score, finished_at=now, ranked=True
        )
        made[name] = Entry.objects.get(race=race)
    rows, more = day_board.page_of(day.date, 1)
    assert [entry.name for _, entry in rows] == ["fast", "undo", "slow", "high", "low"]
    assert day_board.rank_of(made["high"]) == 4 and not more


# --- 4/5. accounts and the one ranked attempt -----------------------------------------


def test_a_guests_history_survives_sign_up():
    client = browser()
    key = client.session[identity.PLAYER_KEY]
    solo = alone.solo_race(Deal.for_code("HM1-N-AAAAAAF"), key, "Guest")
    Entry.objects.filter(race=solo).update(status=Entry.RESIGNED, finished_at=timezone.now())
    client.post(
        "/accounts/signup/",
        {"username": "ada", "password1": "moon-race-42!", "password2": "moon-race-42!"},
    )
    assert Entry.objects.get(race=solo).user.username == "ada"
    assert client.session[identity.PLAYER_KEY] == key
    assert client.get("/players/ada/").context["stats"]["played"] == 1


def test_logging_in_elsewhere_plays_as_the_same_player():
    first, user = account("ada")
    other = browser()
    other.post("/accounts/login/", {"username": "ada", "password": "moon-race-42!"})
    assert other.session[identity.PLAYER_KEY] == first.session[identity.PLAYER_KEY]


def test_the_database_refuses_a_second_daily_attempt_of_an_account():
    _, user = account("ada")
    day = daily.daily_deal()
    alone.daily_race(day, user.account.player_key, "ada")
    other = actions.create_race(day.deal, "z" * 32, mode=Race.DAILY, daily_date=day.date)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(
            race=other, player_key="z" * 32, name="ada", user=user, daily_date=day.date
        )


@pytest.mark.postgres
def test_one_ranked_attempt_per_account_under_two_concurrent_requests():
    _, user = account("ada")
    day = daily.daily_deal()
    key = user.account.player_key
    rooms = attempts_at_once(day, [key, key])
    assert len(rooms) == 2 and len(set(rooms)) == 1  # both got the one attempt
    assert Entry.objects.filter(user=user).count() == 1


def attempts_at_once(day, keys):
    """`alone.daily_race` for each of `keys` in threads started together: the rooms."""
    start, rooms = threading.Barrier(len(keys)), []

    def attempt(key):
        start.wait()
        try:
            rooms.append(alone.daily_race(day, key, "guest").room)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return rooms


@pytest.mark.postgres
def test_one_guest_attempt_under_two_concurrent_requests():
    day = daily.daily_deal()
    rooms = attempts_at_once(day, ["g" * 32, "g" * 32])
    assert len(rooms) == 2 and len(set(rooms)) == 1  # both got the one attempt
    assert Entry.objects.filter(player_key="g" * 32, daily_date=day.date).count() == 1


@pytest.mark.postgres
def test_a_guest_starting_the_day_waits_for_no_other_guest():
    """While one guest's attempt is being made (its lock held), another's is made: the
    reset's crowd is not taken one at a time (docs/performance.md, "The rush")."""
    day = daily.daily_deal()
    daily.guests_deal(day)
    held, other_done, while_held = threading.Event(), threading.Event(), []

    def first_guest():
        try:
            with transaction.atomic():
                alone._hold_attempt(day, "f" * 32)
                held.set()
                while_held.append(other_done.wait(30))  # a bound, not a timing
        finally:
            connection.close()

    holder = threading.Thread(target=first_guest)
    holder.start()
    assert held.wait(30)
    room = alone.daily_race(day, "o" * 32, "Other").room
    other_done.set()
    holder.join()
    assert while_held == [True]
    assert Entry.objects.get(player_key="o" * 32, daily_date=day.date).race.room == room


# --- 6. limits --------------------------------------------------------------------------


def test_a_fresh_cookie_per_request_still_hits_the_per_address_limit(settings):
    settings.HALFMOON_CREATE_ADDRESS_LIMIT = "3/3600"
    statuses = [post(browser(), "/api/races/", {"deal": "random"}).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]


def test_forwarded_for_is_believed_only_from_a_trusted_proxy(settings):
    from game.base import clients

    settings.HALFMOON_TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert clients.address("10.0.0.2", "6.6.6.6, 1.2.3.4") == "1.2.3.4"
    assert clients.address("10.0.0.2", "1.2.3.4, 10.0.0.9") == "1.2.3.4"
    assert clients.address("5.5.5.5", "1.2.3.4") == "5.5.5.5"


def test_sign_up_is_limited_per_address(settings):
    settings.HALFMOON_SIGNUP_ADDRESS_LIMIT = "2/3600"
    for name in ("a1", "a2"):
        account(name)
    refused = browser().post(
        "/accounts/signup/",
        {"username": "a3", "password1": "moon-race-42!", "password2": "moon-race-42!"},
    )
    assert refused.status_code == 400 and not User.objects.filter(username="a3").exists()


# --- 7. players come back ---------------------------------------------------------------


def test_a_streak_counts_consecutive_daily_wins_and_survives_until_the_next_day(monkeypatch):
    day = datetime.date(2026, 11, 10)
    wins = [day, day + datetime.timedelta(days=1), day + datetime.timedelta(days=2)]
    wins += [day + datetime.timedelta(days=5)]

    def current_and_best(today):
        found = streaks.streak(set(wins), set(wins), today)
        return found.current, found.best

    assert current_and_best(day + datetime.timedelta(days=5)) == (1, 3)
    assert current_and_best(day + datetime.timedelta(days=6)) == (1, 3)
    assert current_and_best(day + datetime.timedelta(days=7)) == (0, 3)


def test_the_profile_shows_a_daily_streak_set_by_the_clock(monkeypatch):
    _, user = account("ada")
    first = days.today() - datetime.timedelta(days=2)
    for offset in range(3):
        date = first + datetime.timedelta(days=offset)
        day = DailyDeal.objects.get_or_create(
            date=date, defaults={"deal": Deal.for_code(TODAYS_CODE)}
        )[0]
        race = alone.daily_race(day, user.account.player_key, "ada")
        Entry.objects.filter(race=race).update(
            status=Entry.WON, time_ms=60_000, finished_at=timezone.now()
        )
    stats = Client().get("/players/ada/").context["stats"]
    assert (stats["streak"], stats["best_streak"], stats["won"]) == (3, 3, 3)
    monkeypatch.setattr(days, "today", lambda: first + datetime.timedelta(days=4))
    stats = Client().get("/players/ada/").context["stats"]
    assert (stats["streak"], stats["best_streak"]) == (0, 3)


# --- 8. the month view and the all-time board --------------------------------------------

A_DAY = datetime.date(2025, 3, 15)
"""The clock of the month and all-time tests: a fixed day, so a month has days behind it."""


def daily_result(date, name, ms=60_000, undos=0, review=Entry.CLEAN, status=Entry.WON):
    """An account's finished attempt at the deal of `date`, judged `review`: written by
    hand, with no moves, so it and its day count as replayed (game/results/verify.py)."""
    user = User.objects.filter(username=name).first()
    user = user or User.objects.create(username=name, date_joined=timezone.now() - OLD_ENOUGH)
    if not hasattr(user, "account"):
        accounts.claim(user, name.ljust(32, "k"))
    code = "HM1-N-AAAAM" + chr(65 + date.month) + chr(65 + date.day % 26)
    made = {"deal": Deal.for_code(code), "top_checked_at": timezone.now()}
    day = DailyDeal.objects.get_or_create(date=date, defaults=made)[0]  # no replay: no moves
    race = alone.daily_race(day, user.account.player_key, name)
    ranked = review in Entry.COUNTED
    Entry.objects.filter(race=race).update(
        status=status,
        time_ms=ms,
        undos=undos,
        review=review,
        ranked=ranked,
        verification=Entry.VERIFIED if ranked else Entry.UNVERIFIED,
        finished_at=timezone.now(),
    )
    records.refresh_entries(Entry.objects.filter(race=race))  # as judging a result does
    return day


@pytest.fixture
def a_day(monkeypatch):
    monkeypatch.setattr(days, "today", lambda: A_DAY)
    return A_DAY


def days_ago(count):
    return A_DAY - datetime.timedelta(days=count)


def test_the_month_view_lists_each_days_ranked_winner_and_never_todays_code(a_day):
    past = daily_result(days_ago(2), "slow", ms=90_000)
    daily_result(days_ago(2), "fast", ms=50_000, undos=2)
    daily_result(days_ago(2), "bot", ms=5_000, review=Entry.FLAGGED)
    today = daily_result(a_day, "early", ms=70_000)
    page = Client().get("/daily/month/2025-03/")
    lines = {line["date"]: line for line in page.context["days"]}
    assert len(lines) == 15 and not lines[days_ago(1)]["played"]
    assert lines[days_ago(2)]["winner"].name == "fast"
    assert lines[a_day]["winner"].name == "early" and lines[a_day]["code"] is None
    html = page.content.decode()
    assert past.deal.code in html and today.deal.code not in html
    assert page.context["next_month"] is None and page.context["previous_month"] is None


def test_the_month_view_moves_between_months_and_has_no_future(a_day):
    daily_result(datetime.date(2025, 2, 27), "ada")
    march = Client().get("/daily/month/2025-03/")
    assert march.context["previous_month"] == datetime.date(2025, 2, 1)
    february = Client().get("/daily/month/2025-02/")
    assert february.context["next_month"] == datetime.date(2025, 3, 1)
    assert [line["date"].day for line in february.context["days"]][-1] == 28
    assert Client().get("/daily/month/2025-04/").status_code == 404
    assert Client().get("/daily/month/2025-13/").status_code == 404


def test_the_daily_leaderboard_links_its_month_and_the_all_time_board(a_day):
    daily_result(a_day, "ada")
    html = Client().get(f"/daily/{a_day.isoformat()}/").content.decode()
    assert 'href="/daily/month/2025-03/"' in html and 'href="/daily/all-time/"' in html


def all_time(client, board, page=1):
    return client.get(f"/daily/all-time/{board}/?page={page}").context


def test_the_all_time_board_counts_only_ranked_daily_wins(a_day):
    for offset, ms in [(4, 90_000), (3, 80_000), (2, 70_000)]:
        daily_result(days_ago(offset), "ada", ms=ms)
    daily_result(days_ago(4), "bob", ms=50_000)
    daily_result(days_ago(2), "bob", ms=65_000)
    daily_result(days_ago(3), "bob", ms=9_000, review=Entry.FLAGGED)
    daily_result(days_ago(1), "bob", ms=8_000, review=Entry.DISQUALIFIED)
    daily_result(days_ago(1), "ada", status=Entry.RESIGNED)
    daily_result(days_ago(2), "cheat", ms=3_000, review=Entry.DISQUALIFIED)
    client = Client()

    def board(name):
        rows = all_time(client, name)["rows"]
        return [(line["rank"], line["name"], line["value"]) for line in rows]

    assert board("wins") == [(1, "ada", 3), (2, "bob", 2)]
    assert board("streaks") == [(1, "ada", 3), (2, "bob", 1)]
    assert board("times") == [(1, "bob", 50_000), (2, "ada", 70_000)]
    assert client.get("/daily/all-time/").context["board"] == "wins"
    assert client.get("/daily/all-time/nope/").status_code == 404


def test_a_longest_streak_is_the_longest_run_of_consecutive_days_won(a_day):
    for offset in (9, 8, 6, 5, 4, 3, 1):
        daily_result(days_ago(offset), "ada")
    for offset in (7, 6, 5, 4):
        daily_result(days_ago(offset), "bob")
    rows = all_time(Client(), "streaks")["rows"]
    assert [(line["name"], line["value"], line["reached"]) for line in rows] == [
        ("bob", 4, days_ago(4)),  # the same length: who reached it first ranks first
        ("ada", 4, days_ago(3)),
    ]


def test_your_own_row_on_the_all_time_board_shows_outside_the_first_page(a_day, monkeypatch):
    from game.daily import record_boards

    monkeypatch.setattr(record_boards, "PAGE", 2)
    for rank, name in enumerate(["ann", "ben", "cat"], start=1):
        for offset in range(5 - rank):
            daily_result(days_ago(offset + 1), name)
    cat, _ = account("cat2")
    daily_result(days_ago(1), "cat2")
    context = all_time(cat, "wins")
    assert [line["name"] for line in context["rows"]] == ["ann", "ben"] and context["has_next"]
    assert (context["you"]["rank"], context["you_on_page"]) == (4, False)
    assert [line["name"] for line in context["shown"]][-1] == "cat2"
    assert 'class="you"' in cat.get("/daily/all-time/").content.decode()


# --- 9. a name is frozen once its game is over ------------------------------------------


def test_a_racer_who_finished_keeps_the_name_they_finished_with():
    ada, bob = "a" * 32, "b" * 32
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), ada, name="Ada")
    actions.join(race.room, ada, "Ada", "socket-a")
    actions.join(race.room, bob, "Bob", "socket-b")
    actions.start(race.room, ada)
    Race.objects.filter(pk=race.pk).update(starts_at=timezone.now())
    actions.resign(race.room, ada)  # Ada's game is over; Bob still plays
    actions.join(race.room, ada, "Renamed", "socket-a")
    actions.join(race.room, bob, "Bobby", "socket-b")  # still playing: may rename
    actions.resign(race.room, bob)
    actions.join(race.room, bob, "Later", "socket-b")
    standings = actions.sync(race.room, ada).reply[0]["standings"]
    assert sorted(line["name"] for line in standings) == ["Ada", "Bobby"]


def test_a_guests_daily_row_keeps_its_name_after_the_finish():
    client = browser()
    key = client.session[identity.PLAYER_KEY]
    room = client.post("/daily/", {"name": "Ada"}).url.split("/")[2]
    actions.connect(room, key, "socket-1")
    actions.resign(room, key)
    actions.join(room, key, "Someone else", "socket-1")
    board = client.get(f"/api/daily/{days.today().isoformat()}/leaderboard/").json()
    assert board["you"]["name"] == "Ada"
    assert Entry.objects.get(race__room=room).name == "Ada"
