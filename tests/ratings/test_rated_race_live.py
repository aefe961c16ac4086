"""
A rated quick race end to end on a real daphne process: two accounts sign up,
wait for a rated race (seeing the window of ratings searched), race (ten moves
each at least, or giving up would leave no game: docs/ratings.md), and both
see their new ratings in the `finished` frame; the stored ratings, the public
API and the rating board say the same.
"""

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Account, Deal, Race
from game.testing.live import Browser, Player, database_url, environment, running
from tests.support.server import WIN, forget_counts

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
PASSWORD = "moon-race-42!"


@pytest.fixture
def server(redis_url, tmp_path):
    forget_counts(redis_url)
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_QUICK_WAIT_PAIR_S="0",  # a pair goes at once
        HALFMOON_QUICK_SHOW_S="4",  # the time the test has to connect both
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(1, env, tmp_path) as (server,):
        yield server


def signed_up(server, username):
    browser = Browser()
    browser.get(f"{server.url}/")
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    assert browser.submit(f"{server.url}/accounts/signup/", fields) == (200, f"{server.url}/me/")
    return browser


def on_the_rule_books_deal(room):
    """The seated race's random deal swapped for the rule book's, before anyone connects,
    so that the test knows a legal move."""
    Race.objects.filter(room=room).update(deal=Deal.for_code(RULE_BOOK_DEAL))


def a_minute_in(room):
    Race.objects.filter(room=room).update(started_at=timezone.now() - timedelta(minutes=1))


def stored(username):
    account = Account.objects.get(user__username=username)
    return round(account.rating), round(account.deviation)


async def test_a_rated_quick_race_moves_both_ratings_as_every_page_shows(server):
    ada, bea = signed_up(server, "ada"), signed_up(server, "bea")
    waiting = ada.post(f"{server.url}/api/quick/", {"rated": True})
    assert waiting == {"waiting": 1, "window": [1400, 1600]}
    placed = bea.post(f"{server.url}/api/quick/", {"rated": True})
    room = placed["room"]
    assert ada.post(f"{server.url}/api/quick/", {"rated": True})["room"] == room
    await database_sync_to_async(on_the_rule_books_deal)(room)
    players = [Player(browser, server, room) for browser in (ada, bea)]
    for player in players:
        state = await player.open()
        assert state["race"]["rated"] is True
    for player in players:
        await player.expect("started")
    for player, count in ((players[0], 11), (players[1], 10)):  # a game: ten moves or more
        for seq, slots in enumerate(WIN[:count], start=1):
            await player.send("move", seq=seq, slots=slots)
            await player.expect("moved")
    await database_sync_to_async(a_minute_in)(room)  # not a race of seconds
    for player in (players[1], players[0]):
        await player.send("resign")
    finished = [await player.expect("finished") for player in players]
    assert finished[0]["standings"] == finished[1]["standings"]
    lines = {line["name"]: line["rating"] for line in finished[0]["standings"]}
    assert lines["ada"]["change"] > 0 > lines["bea"]["change"]
    for name in ("ada", "bea"):
        rating, deviation = await database_sync_to_async(stored)(name)
        assert lines[name]["rating"] == rating and deviation < 350
        assert lines[name]["rating"] == 1500 + lines[name]["change"]
        _, body = ada.get(f"{server.url}/api/players/{name}/")
        profile = json.loads(body)
        assert (profile["rating"], profile["deviation"]) == (rating, deviation)
        won = int(name == "ada")
        assert profile["rated"] == {"won": won, "lost": 1 - won}
    _, body = bea.get(f"{server.url}/api/ratings/")
    board = json.loads(body)
    assert [(line["name"], line["rating"]) for line in board["entries"]] == [
        ("ada", lines["ada"]["rating"]),
        ("bea", lines["bea"]["rating"]),
    ]
    assert board["you"]["name"] == "bea" and board["you"]["you"]
    for player in players:
        await player.close()


async def test_a_rated_race_an_opponent_gives_up_at_once_is_not_rated_and_says_why(server):
    """The farm's race: the feeder gives up at once, the farmer after a move."""
    farmer, feeder = signed_up(server, "farmer"), signed_up(server, "feeder")
    assert farmer.post(f"{server.url}/api/quick/", {"rated": True})["waiting"] == 1
    room = feeder.post(f"{server.url}/api/quick/", {"rated": True})["room"]
    await database_sync_to_async(on_the_rule_books_deal)(room)
    players = [Player(browser, server, room) for browser in (farmer, feeder)]
    for player in players:
        await player.open()
    for player in players:
        await player.expect("started")
    await players[0].send("move", seq=1, slots=WIN[0])
    await players[0].expect("moved")
    await database_sync_to_async(a_minute_in)(room)  # no race of seconds: the feeder's exit
    for player in (players[1], players[0]):
        await player.send("resign")
    finished = [await player.expect("finished") for player in players]
    for frame in finished:
        lines = {line["name"]: line["rating"] for line in frame["standings"]}
        for name in ("farmer", "feeder"):
            assert lines[name]["unrated"] == "left_early" and lines[name]["change"] == 0
    for name in ("farmer", "feeder"):
        assert await database_sync_to_async(stored)(name) == (1500, 350)
    for player in players:
        await player.close()
