"""
Head to head on a followed player's profile: the races two accounts finished against
each other, decided by the rated races' pairwise rule, the tally from each side and
the latest races linked to their replays; shown only to a follower.
"""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.friends import head_to_head
from game.models import Entry
from tests.ratings.test_ratings import ada_beats_bob, rated_race

from .test_friends import post

pytestmark = pytest.mark.django_db


def signed_in(name):
    client = Client()
    client.force_login(User.objects.get(username=name))
    return client


def test_a_follower_sees_the_tally_and_the_latest_races_with_their_replays():
    first, _ = ada_beats_bob()
    second, _ = ada_beats_bob()
    running, keys = rated_race("ada", "bob")  # not finished: not counted
    ada, bob = signed_in("ada"), signed_in("bob")
    before = ada.get("/players/bob/").content.decode()
    assert "Head to head" not in before  # ada does not follow bob yet
    assert post(ada, "/api/follows/bob/").status_code in (200, 201)
    page = ada.get("/players/bob/").content.decode()
    assert "You won 2, lost 0, drew 0." in page
    for race in (first, second):
        entry = race.entries.get(name="ada")
        assert f'href="/replay/{race.room}/{entry.pk}/"' in page
    assert f"/replay/{running.room}/" not in page
    post(bob, "/api/follows/ada/")
    assert "You won 0, lost 2, drew 0." in bob.get("/players/ada/").content.decode()
    assert "Head to head" not in Client().get("/players/bob/").content.decode()


def test_a_disqualified_result_and_a_race_without_the_other_are_left_out(admin_user):
    race, _ = ada_beats_bob()
    ada_beats_bob()
    ada, bob = User.objects.get(username="ada"), User.objects.get(username="bob")
    Entry.objects.filter(race=race, user=ada).update(review=Entry.DISQUALIFIED)
    found = head_to_head.record(ada, bob)
    assert (found["won"], found["lost"], found["drawn"]) == (1, 0, 0)
    assert race.pk not in [entry.race_id for entry, _ in found["latest"]]
    carol = User.objects.create(username="carol")
    assert head_to_head.record(ada, carol) is None


def test_the_panel_reads_in_the_players_language():
    ada_beats_bob()
    ada = signed_in("ada")
    post(ada, "/api/follows/bob/")
    page = ada.get("/players/bob/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Face-à-face" in page and "Vous avez gagné 1, perdu 0, fait égalité 0." in page
