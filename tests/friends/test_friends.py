"""
Friends: follow any account, block one, challenge one you follow (the lifecycle on a
clock the test moves), and the boards' Friends views, week and month boards, read
from the records a judged result keeps.
"""

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.base import days
from game.friends import challenges, follows
from game.models import Challenge, Entry, Follow, Race, Record
from game.results import fairplay
from tests.race.test_fair_play import A_DAY, daily_result
from tests.support.server import signed_up

pytestmark = pytest.mark.django_db


def post(client, url, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def code(answer):
    return answer.status_code, answer.json()["error"]["code"]


@pytest.fixture
def ada():
    return signed_up("ada")


@pytest.fixture
def bob():
    return signed_up("bob")


def user(name):
    return User.objects.get(username=name)


# --- follow, unfollow, block -------------------------------------------------------


def test_following_needs_no_consent_shows_on_both_profiles_and_ends_with_unfollow(ada, bob):
    answer = post(ada, "/api/follows/bob/")
    assert answer.status_code == 200 and answer.json()["following"] is True
    assert post(ada, "/api/follows/bob/").status_code == 200  # again: nothing changes
    bobs = Client().get("/players/bob/").content.decode()
    assert "1 follower" in bobs and 'href="/players/ada/"' in bobs
    assert "Follows 1 player" in Client().get("/players/ada/").content.decode()
    assert bob.get("/players/ada/").context is not None
    assert "Follows you." in bob.get("/players/ada/").content.decode()
    assert ada.delete("/api/follows/bob/").json()["following"] is False
    assert "0 followers" in Client().get("/players/bob/").content.decode()


@pytest.mark.parametrize("extra", [0, 1, 7])
def test_a_profile_lists_a_hundred_followers_and_counts_them_all(bob, extra):
    fans = User.objects.bulk_create(User(username=f"fan{n}") for n in range(follows.LISTED + extra))
    Follow.objects.bulk_create(Follow(follower=fan, followed=user("bob")) for fan in fans)
    found = follows.lists(user("bob"))
    assert found["followers_count"] == follows.LISTED + extra
    assert len(found["followers"]) == follows.LISTED
    assert found["following"] == [] and found["following_count"] == 0
    page = Client().get("/players/bob/").content.decode()
    assert f"{follows.LISTED + extra} followers" in page


def test_bad_follows_get_a_clear_error(ada):
    assert code(post(ada, "/api/follows/ada/")) == (400, "self_follow")
    assert code(ada.delete("/api/follows/ada/")) == (400, "self_follow")  # was a 500
    assert code(ada.delete("/api/blocks/ada/")) == (400, "self_follow")
    assert code(post(ada, "/api/follows/nobody/")) == (404, "no_such_player")
    guest = Client()
    guest.get("/")
    assert code(post(guest, "/api/follows/ada/")) == (403, "account_needed")
    assert code(guest.get("/api/challenges/")) == (403, "account_needed")


def test_a_block_removes_their_follow_and_stops_follows_and_challenges(ada, bob):
    post(ada, "/api/follows/bob/")
    post(bob, "/api/follows/ada/")
    assert post(bob, "/api/blocks/ada/").json()["blocking"] is True
    assert not User.objects.get(username="bob").followers.exists()
    assert not User.objects.get(username="bob").following.exists()
    assert code(post(ada, "/api/follows/bob/")) == (403, "blocked")
    assert code(post(ada, "/api/challenges/", {"name": "bob"})) == (403, "blocked")
    assert code(post(bob, "/api/follows/ada/")) == (403, "blocked")  # unblock first
    assert "Unblock" in bob.get("/players/ada/").content.decode()
    bob.delete("/api/blocks/ada/")
    assert post(ada, "/api/follows/bob/").json()["following"] is True


def test_a_block_ends_an_open_challenge(ada, bob):
    post(ada, "/api/follows/bob/")
    sent = post(ada, "/api/challenges/", {"name": "bob"}).json()
    post(bob, "/api/blocks/ada/")
    assert bob.get("/api/challenges/").json()["received"] == []
    assert code(post(bob, f"/api/challenges/{sent['id']}/accept/")) == (409, "challenge_gone")


# --- challenges ----------------------------------------------------------------------


def test_only_a_followed_account_can_be_challenged(ada, bob):
    assert code(post(ada, "/api/challenges/", {"name": "bob"})) == (409, "not_following")
    assert code(post(ada, "/api/challenges/", {"name": "ada"})) == (400, "self_follow")
    assert code(post(ada, "/api/challenges/", {"name": 7})) == (400, "bad_field")
    assert code(post(ada, "/api/challenges/", {"name": "zed"})) == (404, "no_such_player")
    assert code(post(ada, "/api/challenges/1/shrug/")) == (404, "not_found")


def test_one_open_challenge_per_pair_until_it_expires_after_two_minutes(ada, bob):
    a, b = user("ada"), user("bob")
    post(ada, "/api/follows/bob/")
    post(bob, "/api/follows/ada/")
    start = datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.UTC)
    first = challenges.send(a, b, now=start)
    with pytest.raises(challenges.GameError) as again:
        challenges.send(a, b, now=start + datetime.timedelta(seconds=60))
    assert again.value.code == "challenge_open"
    with pytest.raises(challenges.GameError) as back:
        challenges.send(b, a, now=start + datetime.timedelta(seconds=60))  # either way
    assert back.value.code == "challenge_open"
    just_before = start + datetime.timedelta(seconds=119)
    assert [c["name"] for c in challenges.inbox(b, now=just_before)["received"]] == ["ada"]
    expired = start + datetime.timedelta(seconds=120)
    assert challenges.inbox(b, now=expired)["received"] == []
    assert challenges.inbox(a, now=expired)["sent"][0]["status"] == "expired"
    with pytest.raises(challenges.GameError) as late:
        challenges.accept(b, first.id, now=expired)
    assert late.value.code == "challenge_gone"
    second = challenges.send(b, a, now=expired)  # the pair is free again
    assert second.status == Challenge.OPEN
    assert Challenge.objects.get(id=first.id).status == Challenge.EXPIRED


def test_accepting_puts_both_into_the_same_private_race_and_tells_the_challenger(ada, bob):
    post(ada, "/api/follows/bob/")
    sent = post(ada, "/api/challenges/", {"name": "bob"})
    assert sent.status_code == 201
    received = bob.get("/api/challenges/").json()["received"]
    assert [(c["name"], c["status"]) for c in received] == [("ada", "open")]
    assert 0 < received[0]["expires_in_s"] <= 120
    assert code(post(ada, f"/api/challenges/{sent.json()['id']}/accept/")) == (
        409,
        "challenge_gone",
    )
    accepted = post(bob, f"/api/challenges/{sent.json()['id']}/accept/")
    assert accepted.status_code == 201
    race = Race.objects.get(room=accepted.json()["room"])
    assert race.mode == Race.RACE and race.status == Race.LOBBY and race.deal_hidden
    assert sorted(race.entries.values_list("user__username", flat=True)) == ["ada", "bob"]
    assert race.host_key == user("ada").account.player_key  # the challenger starts it
    told = ada.get("/api/challenges/").json()["sent"][0]
    assert (told["status"], told["url"]) == ("accepted", accepted.json()["url"])
    assert bob.get("/api/challenges/").json()["received"] == []
    again = post(bob, f"/api/challenges/{sent.json()['id']}/accept/")
    assert code(again) == (409, "challenge_gone")  # one race per challenge


def test_declining_tells_the_challenger_and_the_challenger_can_take_one_back(ada, bob):
    post(ada, "/api/follows/bob/")
    first = post(ada, "/api/challenges/", {"name": "bob"}).json()["id"]
    assert post(bob, f"/api/challenges/{first}/decline/").json()["status"] == "declined"
    assert ada.get("/api/challenges/").json()["sent"][0]["status"] == "declined"
    second = post(ada, "/api/challenges/", {"name": "bob"}).json()["id"]
    assert post(ada, f"/api/challenges/{second}/cancel/").json()["status"] == "cancelled"
    assert bob.get("/api/challenges/").json()["received"] == []
    assert code(post(bob, f"/api/challenges/{second}/accept/")) == (409, "challenge_gone")


def test_the_lobby_and_the_profile_carry_the_challenges_box_for_accounts(ada):
    assert "data-challenges" in ada.get("/").content.decode()
    assert "data-challenges" in ada.get("/players/ada/").content.decode()
    assert "data-challenges" not in Client().get("/").content.decode()


# --- boards: friends views, week and month -----------------------------------------


RESULTS = [
    # (day of March 2025, account, seconds)
    (1, "cat", 80),
    (9, "cat", 70),
    (10, "ada", 60),
    (11, "bob", 50),
    (12, "ada", 90),
    (12, "bob", 95),
    (12, "cat", 30),
]


@pytest.fixture
def month_of_results(monkeypatch):
    """The results above (A_DAY is 2025-03-15, a Saturday of ISO week 11), a flagged
    win that never counts, and ada following bob."""
    monkeypatch.setattr(days, "today", lambda: A_DAY)
    for day, name, seconds in RESULTS:
        daily_result(datetime.date(2025, 3, day), name, ms=seconds * 1000)
    daily_result(datetime.date(2025, 3, 13), "dan", ms=5_000, review=Entry.FLAGGED)
    ada = Client()
    ada.force_login(user("ada"))
    post(ada, "/api/follows/bob/")
    return ada


def lines(context):
    return [(line["rank"], line["name"], line["value"]) for line in context["shown"]]


def test_the_week_board_counts_the_weeks_ranked_wins_and_best_times(month_of_results):
    anyone = Client()
    wins = anyone.get("/daily/week/2025-W11/").context
    assert lines(wins) == [(1, "ada", 2), (2, "bob", 2), (3, "cat", 1)]
    times = anyone.get("/daily/week/2025-W11/times/").context
    assert lines(times) == [(1, "cat", 30_000), (2, "bob", 50_000), (3, "ada", 60_000)]
    assert lines(anyone.get("/daily/week/2025-W10/").context) == [(1, "cat", 1)]
    mine = month_of_results.get("/daily/week/2025-W11/times/")
    assert mine.context["you"]["rank"] == 3
    assert 'class="you" aria-current="true"><td>3</td>' in mine.content.decode()
    for bad in ("2025-11", "2025-W60", "2025-W11/streaks", "2025-W13"):
        assert anyone.get(f"/daily/week/{bad}/").status_code == 404


def test_the_month_board_counts_the_months_ranked_wins_and_best_times(month_of_results):
    anyone = Client()
    wins = anyone.get("/daily/month/2025-03/wins/").context
    assert lines(wins) == [(1, "cat", 3), (2, "ada", 2), (3, "bob", 2)]
    times = anyone.get("/daily/month/2025-03/times/").context
    assert lines(times) == [(1, "cat", 30_000), (2, "bob", 50_000), (3, "ada", 60_000)]
    assert anyone.get("/daily/month/2025-03/streaks/").status_code == 404
    assert anyone.get("/daily/month/2025-04/wins/").status_code == 404
    assert lines(anyone.get("/daily/month/2025-02/wins/").context) == []


def test_friends_views_show_exactly_the_accounts_one_follows_and_oneself(month_of_results):
    ada = month_of_results
    friends = "?view=friends"
    assert lines(ada.get(f"/daily/all-time/{friends}").context) == [(1, "ada", 2), (2, "bob", 2)]
    week = ada.get(f"/daily/week/2025-W11/times/{friends}").context
    assert lines(week) == [(1, "bob", 50_000), (2, "ada", 60_000)]
    assert week["you"]["rank"] == 2
    month = ada.get(f"/daily/month/2025-03/wins/{friends}").context
    assert lines(month) == [(1, "ada", 2), (2, "bob", 2)]
    day = ada.get(f"/daily/2025-03-12/{friends}")
    assert [(row["rank"], row["name"]) for row in day.context["rows"]] == [(1, "ada"), (2, "bob")]
    assert [row["name"] for row in day.context["rows"] if row["you"]] == ["ada"]
    everyone = ada.get("/daily/2025-03-12/").context["rows"]
    assert [row["name"] for row in everyone] == ["cat", "ada", "bob"]
    bob = Client()
    bob.force_login(user("bob"))  # follows nobody: his friends' board is himself
    assert lines(bob.get(f"/daily/all-time/{friends}").context) == [(1, "bob", 2)]
    guest_page = Client().get(f"/daily/all-time/{friends}").content.decode()
    assert "Sign in to see your friends" in guest_page


def test_a_records_row_follows_the_staffs_decision(month_of_results, admin_user):
    ada_10 = Entry.objects.get(name="ada", daily_date=datetime.date(2025, 3, 10))
    fairplay.decide(ada_10, admin_user, Entry.DISQUALIFIED, "shared account")
    week = Record.objects.get(
        user=user("ada"), period=Record.WEEK, start=datetime.date(2025, 3, 10)
    )
    assert (week.wins, week.best_ms, week.best_on) == (1, 90_000, datetime.date(2025, 3, 12))
    dan = Entry.objects.get(name="dan")
    assert not Record.objects.filter(user=user("dan")).exists()
    fairplay.decide(dan, admin_user, Entry.CONFIRMED, "watched the replay")
    assert Record.objects.get(user=user("dan"), period=Record.ALL).best_ms == 5_000


def test_your_row_on_a_friends_board_shows_below_its_page(month_of_results, monkeypatch):
    from game.daily import record_boards

    monkeypatch.setattr(record_boards, "PAGE", 1)
    context = month_of_results.get("/daily/week/2025-W11/times/?view=friends").context
    assert [line["name"] for line in context["rows"]] == ["bob"] and context["has_next"]
    assert (context["you"]["rank"], context["you_on_page"]) == (2, False)
    assert lines(context) == [(1, "bob", 50_000), (2, "ada", 60_000)]
