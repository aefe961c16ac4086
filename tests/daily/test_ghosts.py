"""
Ghost races: a daily deal raced against the leader's (or one's own best) recorded
game, which shows its progress and never a card, never today's code, and never
ranks or uses up the day's attempt.
"""

import datetime
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game.base import days
from game.daily import day_board
from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import DailyDeal, Deal, Entry, Race
from game.players import identity
from game.race import actions
from game.results import move_log
from tests.support.server import (
    GUESTS_CODE,
    WIN,
    Socket,
    account_key,
    close_all,
    guest_key,
    move_clock,
    ranked_daily_win,
    signed_up,
    win_at_a_persons_pace,
)

pytestmark = pytest.mark.django_db(transaction=True)
CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
"""A card as the server writes one: 5S, 10H, KD."""


def rule_book_layout(date):
    """The day's daily deal: the rule book's layout as a custom deal, so its 48-move win
    can be played, under a code found nowhere by chance (the rule book's own code is the
    example on every form)."""
    deal = Deal(title="the rule book's layout")
    deal.make_custom(EngineDeal.from_code(RULE_BOOK_DEAL))
    deal.save()
    return DailyDeal.objects.create(date=date, deal=deal, guest_deal=Deal.for_code(GUESTS_CODE))


@pytest.fixture
def today():
    return rule_book_layout(days.today())


@pytest.fixture
def yesterday(today):
    return rule_book_layout(days.today() - datetime.timedelta(days=1))


def guest():
    client = Client()
    client.get("/")
    guest_key(client)
    return client


def ghost_url(day):
    return f"/api/daily/{day.date.isoformat()}/ghost/"


def race_the(client, day, of):
    return client.post(ghost_url(day), json.dumps({"of": of}), content_type="application/json")


def ghost_frame(race, key):
    """The `ghost` frame a socket gets on connecting to the ghost race."""
    reply = actions.connect(race.room, key, "test-socket").reply
    assert [frame["type"] for frame in reply] == ["state", "ghost"]
    return reply[1]["ghost"]


def key_of(client):
    return client.session[identity.PLAYER_KEY]


def done_attempt(client, day):
    """This browser's daily attempt at `day`, begun and given up."""
    attempt = alone.daily_race(day, key_of(client), "Me")
    actions.connect(attempt.room, key_of(client), "test-socket")
    actions.resign(attempt.room, key_of(client))
    return attempt


def test_today_a_guest_sees_the_leader_but_races_no_ghost_an_account_after_its_attempt(today):
    ranked_daily_win(today, "ada")
    client = guest()
    done_attempt(client, today)  # on the guests' deal: no look at the ranked one
    offer = client.get(ghost_url(today)).json()
    assert (offer["open"], offer["closed_today"], offer["best"]) == (False, True, None)
    leader = offer["leader"]
    assert (leader["name"], leader["status"], leader["score"], leader["moves"]) == (
        "ada",
        "won",
        520,
        48,
    )
    assert 144_000 <= leader["time_ms"] < 150_000  # 48 moves 3 s apart on average
    for of in ("leader", "best"):
        refused = race_the(client, today, of)
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "attempt_first")
    assert not Race.objects.filter(mode=Race.GHOST).exists()

    bob = signed_up("bob")
    done_attempt(bob, today)
    created = race_the(bob, today, "leader")
    assert created.status_code == 201
    race = Race.objects.get(room=created.json()["room"])
    assert (race.mode, race.daily_date, race.ghost_of.name) == (Race.GHOST, today.date, "ada")
    assert race_the(bob, today, "leader").json()["room"] == race.room  # still unfinished


async def test_no_frame_of_a_ghost_race_on_todays_deal_shows_a_ghosts_card_or_the_code(today):
    def arrange():
        ranked_daily_win(today, "ada")
        client = signed_up("bob")
        done_attempt(client, today)
        room = race_the(client, today, "leader").json()["room"]
        return client, room, [client.get(ghost_url(today)).content.decode()]

    client, room, answers = await database_sync_to_async(arrange)()
    socket = Socket(room, client.cookies["sessionid"].value)
    await socket.open()
    ghost = (await socket.expect("ghost"))["ghost"]
    await socket.request("move", seq=1, slots=WIN[0])
    await socket.expect("moved")
    await socket.request("resign")
    await socket.expect("finished")
    await socket.request("sync")
    await socket.expect("state")
    await close_all(socket)

    def answers_after():
        entry = Entry.objects.get(race__room=room)
        return [
            client.get(url).content.decode()
            for url in (
                f"/race/{room}/",
                f"/api/races/{room}/",
                f"/api/replays/{room}/{entry.pk}/",
                f"/replay/{room}/{entry.pk}/",
                "/me/",
            )
        ]

    answers += await database_sync_to_async(answers_after)()
    assert CARD.findall(json.dumps(ghost)) == [] and CARD.findall(answers[0]) == []
    assert ghost["of"] == "leader" and ghost["name"] == "ada"
    assert [point[4] for point in ghost["points"]] == [None] * 49  # the leader's line: hidden
    assert [f["type"] for f in socket.seen if today.deal.code in json.dumps(f)] == []
    assert [page for page in answers if today.deal.code in page] == []


def test_the_ghost_moves_as_the_leaders_stored_moves_did(yesterday):
    leader = ranked_daily_win(yesterday, "ada", gap_s=2)
    client = guest()
    race = Race.objects.get(room=race_the(client, yesterday, "leader").json()["room"])
    points = ghost_frame(race, key_of(client))["points"]
    started = leader.race.started_at
    moved_at = [int((m.at - started).total_seconds() * 1000) for m in move_log.rows(leader)]
    assert [point[0] for point in points] == [0, *moved_at]
    assert moved_at[:-1] == [round(1000 * at) for at in move_clock(2)][:-1]  # as stored
    assert (
        points[-1][1:]
        == [leader.score, leader.moves, leader.cards_left, leader.heights, leader.status]
        == [520, 48, 0, [0] * 20, "won"]
    )
    assert points[1][4] == [7] + [8] * 6 + [7] + [8] * 4 + [1] * 8  # P1 and P8: a past deal's
    assert actions.sync(race.room, key_of(client)).reply[0]["race"]["deal"] == yesterday.deal.code


def test_a_ghost_race_never_enters_the_ranked_board_nor_uses_the_daily_attempt(today):
    ranked_daily_win(today, "ada", gap_s=3)
    bob = account_key("bob")
    attempt = alone.daily_race(today, bob, "bob")
    actions.connect(attempt.room, bob, "test-socket")
    actions.resign(attempt.room, bob)
    ghost_race = alone.ghost_race(today, day_board.leader(today.date), bob, "bob")
    won = win_at_a_persons_pace(ghost_race, bob, gap_s=1)  # faster than ada's 144 s
    assert won.status == Entry.WON and won.daily_date is None
    rows, _ = day_board.page_of(today.date, 1)
    assert [(rank, e.name, e.status) for rank, e in rows] == [
        (1, "ada", "won"),
        (2, "bob", "resigned"),
    ]
    assert alone.daily_attempt(today, bob) == attempt

    client = guest()
    assert race_the(client, today, "leader").json()["error"]["code"] == "attempt_first"
    assert client.get("/daily/").templates[0].name == "game/daily.html"  # no attempt yet
    assert alone.daily_attempt(today, key_of(client)) is None


def test_an_account_races_todays_ghosts_once_its_own_attempt_is_over(today):
    ranked_daily_win(today, "ada")
    client = signed_up("bob")
    assert client.get(ghost_url(today)).json()["open"] is False
    refused = race_the(client, today, "leader")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "attempt_first")
    attempt = alone.daily_race(today, key_of(client), "bob")
    actions.connect(attempt.room, key_of(client), "test-socket")
    assert race_the(client, today, "leader").json()["error"]["code"] == "attempt_first"
    actions.resign(attempt.room, key_of(client))
    assert client.get(ghost_url(today)).json()["open"] is True
    assert race_the(client, today, "leader").status_code == 201


def test_with_nobody_ranked_there_is_no_leader_to_race(yesterday):
    client = signed_up("bob")
    done_attempt(client, yesterday)
    Entry.objects.update(review=Entry.FLAGGED, ranked=False)  # waits for staff: no leader
    offer = client.get(ghost_url(yesterday)).json()
    assert offer["leader"] is None and offer["best"]["status"] == "resigned"
    refused = race_the(client, yesterday, "leader")
    assert (refused.status_code, refused.json()["error"]["code"]) == (404, "no_leader")
    stranger = race_the(guest(), yesterday, "best")
    assert (stranger.status_code, stranger.json()["error"]["code"]) == (404, "no_best")
    assert race_the(client, yesterday, "anyone").json()["error"]["code"] == "bad_field"
    assert guest().get("/api/daily/2001-01-01/ghost/").status_code == 404


def test_race_your_best_is_your_best_finished_game_on_that_deal_with_its_heights(yesterday):
    ranked_daily_win(yesterday, "ada")
    client = guest()  # a past day's ghosts are anyone's
    key = key_of(client)
    for moves in (3, 1):  # two races against the leader, given up after 3 moves, then 1
        room = race_the(client, yesterday, "leader").json()["room"]
        actions.connect(room, key, "test-socket")
        for seq, slots in enumerate(WIN[:moves], start=1):
            actions.move(room, key, seq, slots)
        actions.resign(room, key)
    better = Entry.objects.get(player_key=key, moves=3)
    best = client.get(ghost_url(yesterday)).json()["best"]
    assert (best["score"], best["moves"], best["status"]) == (better.score, 3, "resigned")
    race = Race.objects.get(room=race_the(client, yesterday, "best").json()["room"])
    ghost = ghost_frame(race, key)
    assert race.ghost_of == better and ghost["of"] == "best"
    assert ghost["points"][-1][1:5] == [better.score, 3, better.cards_left, better.heights]
    assert len(move_log.rows(better)) == 3
