"""
A player's own data: the download (/me/export/) holds their account, results, rating,
follows and challenges, and never a deal code they may not see yet; deleting the
account (/me/delete/) leaves every board others read as it was, under a neutral name,
and frees the username.
"""

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.engine.examples import RULE_BOOK_DEAL
from game.models import (
    Block,
    Challenge,
    DailyDeal,
    Deal,
    Entry,
    Follow,
    Race,
    RankCount,
    Record,
    rank_counts,
)
from tests.race.test_fair_play import A_DAY, a_day, daily_result  # noqa: F401 - a_day: a fixture
from tests.support.server import post

pytestmark = pytest.mark.django_db

PASSWORD = "moon-race-42!"
YESTERDAY = A_DAY - datetime.timedelta(days=1)


def logged_in(name):
    user = User.objects.get(username=name)
    user.set_password(PASSWORD)
    user.save()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")
    return client


@pytest.fixture
def three_players(a_day):  # noqa: F811 - the fixture imported above
    """ada, bob and cat each won yesterday's deal (ada fastest, cat slowest); ada also
    won today's, whose code is still secret; ada and bob follow each other, ada blocked
    dan and challenged bob."""
    for name, seconds in (("ada", 50), ("bob", 60), ("cat", 70)):
        daily_result(YESTERDAY, name, ms=seconds * 1000)
    daily_result(a_day, "ada", ms=40_000)
    daily_result(YESTERDAY, "dan", status=Entry.RESIGNED, review=Entry.UNJUDGED)
    ada, bob = logged_in("ada"), logged_in("bob")
    post(ada, "/api/follows/bob/", {})
    post(bob, "/api/follows/ada/", {})
    post(ada, "/api/blocks/dan/", {})
    assert post(ada, "/api/challenges/", {"name": "bob"}).status_code == 201
    return ada, bob


def quick_race_running(name):
    """A running quick race of `name`'s: its deal nobody chose, hidden until the end."""
    race = Race.objects.create(
        room="QUICK1",
        deal=Deal.for_code(RULE_BOOK_DEAL),
        mode=Race.QUICK,
        status=Race.RUNNING,
        deal_hidden=True,
    )
    user = User.objects.get(username=name)
    Entry.objects.create(race=race, player_key=user.account.player_key, user=user, name=name)


def test_the_download_holds_the_accounts_data_and_no_secret_code(three_players):
    ada, _ = three_players
    quick_race_running("ada")
    answer = ada.get("/me/export/")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == 'attachment; filename="halfmoon-ada.json"'
    data = json.loads(answer.content)
    assert data["account"]["username"] == "ada"
    assert data["profile"]["played"] == 2 and data["profile"]["won"] == 2
    assert data["rating"]["rating"] == 1500 and data["rating"]["history"] == []
    games = {game["daily_date"]: game for game in data["games"]}
    past, today = games[YESTERDAY.isoformat()], games[A_DAY.isoformat()]
    assert (past["status"], past["time_ms"], past["mode"]) == ("won", 50_000, "daily")
    assert past["deal"] == DailyDeal.objects.get(date=YESTERDAY).deal.code
    assert today["time_ms"] == 40_000 and today["deal"] is None
    assert DailyDeal.objects.get(date=A_DAY).deal.code.encode() not in answer.content
    [quick] = [game for game in data["games"] if game["mode"] == "quick"]
    assert quick["room"] == "QUICK1" and quick["deal"] is None
    assert RULE_BOOK_DEAL.encode() not in answer.content
    assert [f["name"] for f in data["following"]] == ["bob"]
    assert [f["name"] for f in data["followers"]] == ["bob"]
    assert [b["name"] for b in data["blocking"]] == ["dan"]
    [challenge] = data["challenges"]
    assert (challenge["sent"], challenge["other"], challenge["status"]) == (True, "bob", "open")


def test_the_download_is_for_accounts_and_rate_limited(three_players, settings):
    answer = Client().get("/me/export/")
    assert answer.status_code == 403
    assert json.loads(answer.content)["error"]["code"] == "account_needed"
    ada, _ = three_players
    settings.HALFMOON_READ_LIMIT = "1/60"
    assert ada.get("/me/export/").status_code == 200
    assert ada.get("/me/export/").status_code == 429


def delete(client, password):
    """The deletion page's form sent, with the CSRF token as the page's form has it."""
    token = client.cookies["csrftoken"].value
    return client.post("/me/delete/", {"password": password, "csrfmiddlewaretoken": token})


def board(client, date=YESTERDAY):
    rows = client.get(f"/daily/{date.isoformat()}/").context["rows"]
    return [(row["rank"], row["name"], row["time_ms"]) for row in rows]


def all_time(client):
    shown = client.get("/daily/all-time/").context["shown"]
    return [(line["rank"], line["name"]) for line in shown]


def counts():
    return sorted(RankCount.objects.filter(size__gt=0).values_list("board", "key", "size"))


def test_a_deleted_account_leaves_the_days_board_as_it_was_under_a_neutral_name(three_players):
    _, bob = three_players
    anyone = Client()
    assert board(anyone) == [(1, "ada", 50_000), (2, "bob", 60_000), (3, "cat", 70_000)]
    assert "bob" in dict(all_time(anyone)).values()

    assert bob.get("/me/delete/").status_code == 200
    answer = delete(bob, PASSWORD)
    assert answer.status_code == 200 and "Account deleted" in answer.content.decode()

    assert board(anyone) == [(1, "ada", 50_000), (2, "deleted player", 60_000), (3, "cat", 70_000)]
    assert "deleted player" in anyone.get(f"/daily/{YESTERDAY.isoformat()}/").content.decode()
    french = anyone.get(f"/daily/{YESTERDAY.isoformat()}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "deleted player" not in french.content.decode()
    assert "bob" not in dict(all_time(anyone)).values()
    assert not User.objects.filter(username="bob").exists()
    assert not Record.objects.filter(user__username="bob").exists()
    assert Follow.objects.count() == 0 and Challenge.objects.count() == 0
    assert Block.objects.count() == 1  # ada's block of dan
    before = counts()
    rank_counts.rebuild()
    assert counts() == before  # the counts followed the records and the account out
    assert bob.get("/me/").context["account"] is None  # logged out


def test_the_old_name_signs_up_again_with_none_of_the_old_games(three_players):
    _, bob = three_players
    delete(bob, PASSWORD)
    again = Client()
    answer = again.post(
        "/accounts/signup/", {"username": "bob", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert answer.status_code == 302
    assert again.get("/players/bob/").context["stats"]["played"] == 0
    assert Entry.objects.filter(name="deleted player", user=None).count() == 1


def test_a_deletion_needs_the_password_and_the_csrf_token(three_players):
    _, bob = three_players
    wrong = delete(bob, "guess")
    assert wrong.status_code == 400 and "That is not your password." in wrong.content.decode()
    forged = bob.post("/me/delete/", {"password": PASSWORD})  # no CSRF token
    assert forged.status_code == 403
    assert User.objects.filter(username="bob").exists()
    assert Client().get("/me/delete/").status_code == 302  # a guest: log in first


def test_a_staff_account_is_not_deleted_from_its_page(three_players):
    User.objects.filter(username="bob").update(is_staff=True)
    _, bob = three_players
    assert delete(bob, PASSWORD).status_code == 403
    assert User.objects.filter(username="bob").exists()


@pytest.mark.parametrize("language", ["fr", "ca", "ro"])
def test_the_deletion_page_speaks_each_language(three_players, language):
    _, bob = three_players
    english = bob.get("/me/delete/").content.decode()
    assert "Delete your account" in english
    page = bob.get("/me/delete/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "Delete your account" not in page and "It cannot be undone" not in page


def test_the_profile_links_the_download_and_the_deletion(three_players):
    ada, _ = three_players
    page = ada.get("/me/").content.decode()
    assert 'href="/me/export/"' in page and 'href="/me/delete/"' in page
    assert 'href="/me/export/"' not in Client().get("/players/ada/").content.decode()


def test_a_user_deleted_elsewhere_leaves_its_results_anonymised_too(three_players):
    User.objects.get(username="cat").delete()  # the admin, a shell
    anonymous = (3, "deleted player", 70_000)
    assert board(Client()) == [(1, "ada", 50_000), (2, "bob", 60_000), anonymous]
    assert not Entry.objects.filter(name="cat").exists()
