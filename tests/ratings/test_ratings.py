"""
Ratings: a rated race moves its accounts' Glicko-2 ratings once the fair-play
checks passed it; a flagged result moves nothing until staff confirm it, a
disqualification gives the points back, two accounts count three rated games a
day at most; the rated quick-race queue matches by rating; the profile, the
rating board and the public API read the same stored numbers.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.lobby import quick
from game.models import Account, Entry, Follow, QuickSeat, Race, RatedPair, RatingChange
from game.players import player_ratings
from game.race import actions, frames
from game.ratings import farming, glicko2
from game.results import fairplay
from tests.support.server import (
    WIN,
    account_key,
    post,
    rule_book_race,
    signed_up,
    win_at_a_persons_pace,
    win_on_clock,
)

pytestmark = pytest.mark.django_db


def rated_race(*usernames):
    """A running rated quick race on the rule book's deal, one connected account per
    name (each made if new): (race, {name: player key})."""
    keys = {}
    for name in usernames:
        account = Account.objects.filter(user__username=name).first()
        keys[name] = account.player_key if account else account_key(name)
    race = rule_book_race("", mode=Race.QUICK)
    Race.objects.filter(pk=race.pk).update(rated=True)
    for name, key in keys.items():
        actions.add_entry(race, key, name, connected=True)
        actions.connect(race.room, key, f"socket-{name}")
    actions.start_now(race.room, delay=0)
    race.refresh_from_db()
    return race, keys


def plays(race, key, count=farming.MIN_MOVES):  # HALFMOON_RATED_MIN_MOVES's default
    """The first `count` moves of the rule book's win, by the player of `key`: enough,
    by default, for giving up to leave a rated game (game/ratings/farming.py)."""
    for seq, slots in enumerate(WIN[:count], start=1):
        actions.move(race.room, key, seq, slots)


def a_minute_in(race):
    """The race started a minute ago: not a race of seconds (game/ratings/farming.py)."""
    Race.objects.filter(pk=race.pk).update(started_at=timezone.now() - timedelta(minutes=1))


def ada_beats_bob(clean=True):
    """Ada wins the rule book's deal (at a person's pace, or as fast as a script), Bob
    gives up after ten moves: the race's finished frame."""
    race, keys = rated_race("ada", "bob")
    a_minute_in(race)
    plays(race, keys["bob"])
    if clean:
        win_at_a_persons_pace(race, keys["ada"])
    else:
        win_on_clock(race, keys["ada"])
    actions.resign(race.room, keys["bob"])
    race.refresh_from_db()
    assert race.status == Race.FINISHED
    return race, frames.finished(race)


def rating(name):
    account = Account.objects.get(user__username=name)
    return account.rating, account.deviation, account.volatility


def rating_lines(finished):
    return {line["name"]: line.get("rating") for line in finished["standings"]}


START = (1500.0, 350.0, 0.06)


def test_a_new_account_reads_1500_deviation_350_provisional(client):
    signed_up("newcomer")
    answer = client.get("/api/players/newcomer/")
    assert answer.status_code == 200
    data = answer.json()
    assert (data["rating"], data["deviation"], data["provisional"]) == (1500, 350, True)
    assert data["rank"] == "first_quarter" and data["rated"] == {"won": 0, "lost": 0}
    assert data["history"] == [] and data["shown"] == "1500?"
    page = client.get("/players/newcomer/")
    assert b"1500?" in page.content and page.context["rating"]["rank_name"] == "First Quarter"


def test_a_clean_rated_win_moves_both_ratings_and_the_end_dialog_says_by_how_much():
    race, finished = ada_beats_bob()
    ada, bob = rating("ada"), rating("bob")
    assert ada[0] > 1500 > bob[0] and ada[1] < 350 and bob[1] < 350
    lines = rating_lines(finished)
    assert lines["ada"] == {
        "rating": round(ada[0]),
        "change": round(ada[0]) - 1500,
        "provisional": True,
        "counted": True,
    }
    assert lines["bob"]["change"] == round(bob[0]) - 1500 < 0
    assert finished["standings"][0]["name"] == "ada"
    assert RatingChange.objects.filter(race=race).count() == 2


def test_a_flagged_rated_win_moves_no_rating_until_staff_confirm_it(admin_user):
    race, finished = ada_beats_bob(clean=False)
    ada_entry = race.entries.get(name="ada")
    assert ada_entry.review == Entry.FLAGGED
    assert rating("ada") == rating("bob") == START
    assert rating_lines(finished) == {"ada": {"pending": True}, "bob": {"pending": True}}
    assert not RatingChange.objects.exists()
    fairplay.decide(ada_entry, admin_user, Entry.CONFIRMED, "watched the replay: a person")
    assert rating("ada")[0] > 1500 > rating("bob")[0]
    assert rating_lines(frames.finished(race))["ada"]["change"] > 0


def test_disqualifying_a_flagged_win_moves_no_rating_at_all(admin_user):
    race, _ = ada_beats_bob(clean=False)
    fairplay.decide(race.entries.get(name="ada"), admin_user, Entry.DISQUALIFIED, "a script")
    assert rating("ada") == rating("bob") == START
    assert not RatingChange.objects.exists() and not RatedPair.objects.exists()


def test_a_disqualification_gives_the_loser_back_their_rating(admin_user):
    ada_beats_bob()
    before_second = rating("bob")
    race, _ = ada_beats_bob()
    lost_twice = rating("bob")
    assert lost_twice[0] < before_second[0]
    fairplay.decide(race.entries.get(name="ada"), admin_user, Entry.DISQUALIFIED, "shared account")
    assert rating("bob") == pytest.approx(before_second)
    bob_row = RatingChange.objects.get(race=race, user__username="bob")
    assert not bob_row.counted and bob_row.rating_after == pytest.approx(bob_row.rating_before)
    assert player_ratings.record(User.objects.get(username="bob")) == {"won": 0, "lost": 1}
    assert RatedPair.objects.filter(race=race).count() == 0


def test_a_disqualification_of_an_older_race_shifts_the_later_history(admin_user):
    first, _ = ada_beats_bob()
    ada_beats_bob()
    fairplay.decide(first.entries.get(name="ada"), admin_user, Entry.DISQUALIFIED, "bot")
    bob = User.objects.get(username="bob")
    history = player_ratings.history(bob)
    assert len(history) == 1 and history[-1]["rating"] == round(rating("bob")[0])


def test_two_accounts_count_three_rated_games_a_day_at_most(settings):
    settings.HALFMOON_RATED_PAIR_DAILY = 3
    for _ in range(3):
        ada_beats_bob()
    after_three = rating("ada"), rating("bob")
    race, finished = ada_beats_bob()
    assert (rating("ada"), rating("bob")) == after_three
    lines = rating_lines(finished)
    assert lines["ada"]["change"] == 0 and not lines["ada"]["counted"]
    assert RatedPair.objects.count() == 3
    carol_race, keys = rated_race("ada", "carol")  # another opponent still counts
    a_minute_in(carol_race)
    for name in ("carol", "ada"):
        plays(carol_race, keys[name])
        actions.resign(carol_race.room, keys[name])
    assert RatedPair.objects.count() == 4


def test_a_race_of_three_rates_every_pair_of_its_finishing_order():
    race, keys = rated_race("ada", "bob", "cy")
    plays(race, keys["bob"], farming.MIN_MOVES + 2)  # a score above Cy's
    plays(race, keys["cy"])
    win_at_a_persons_pace(race, keys["ada"])
    for name in ("bob", "cy"):
        actions.resign(race.room, keys[name])
    assert race.entries.get(name="bob").score > race.entries.get(name="cy").score
    assert rating("ada")[0] > rating("bob")[0] == pytest.approx(1500, abs=0.5)
    assert rating("bob")[0] > rating("cy")[0]
    assert [(r.wins, r.losses) for r in RatingChange.objects.order_by("rating_after")] == [
        (0, 2),
        (1, 1),
        (2, 0),
    ]


def test_a_casual_race_moves_no_rating():
    race, keys = rated_race("ada", "bob")
    Race.objects.filter(pk=race.pk).update(rated=False)
    for key in keys.values():
        actions.resign(race.room, key)
    assert rating("ada") == rating("bob") == START and not RatingChange.objects.exists()


# --- the rated queue --------------------------------------------------------------------


def set_rating(name, value):
    account_key(name)
    Account.objects.filter(user__username=name).update(rating=value)
    return Account.objects.get(user__username=name).player_key


def test_rated_players_are_matched_within_a_window_that_widens_as_they_wait(settings):
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    ada, far = set_rating("ada", 1500), set_rating("far", 1720)
    assert quick.poll(ada, "ada", rated=True) == {"waiting": 1, "window": [1400, 1600]}
    assert quick.poll(far, "far", rated=True) == {"waiting": 2, "window": [1620, 1820]}
    assert not Race.objects.exists()  # 220 apart: neither window holds the other
    QuickSeat.objects.update(since=timezone.now() - timedelta(seconds=10.5))
    assert quick.poll(ada, "ada", rated=True) == {"waiting": 2, "window": [1300, 1700]}
    QuickSeat.objects.update(since=timezone.now() - timedelta(seconds=15.5))
    placed = quick.poll(far, "far", rated=True)  # ±250 now, both ways
    race = Race.objects.get(room=placed["room"])
    assert race.rated and race.mode == Race.QUICK
    assert sorted(race.entries.values_list("name", flat=True)) == ["ada", "far"]


def test_rated_and_casual_players_wait_in_separate_lines(settings):
    settings.HALFMOON_QUICK_WAIT_PAIR_S = 0
    ada = set_rating("ada", 1500)
    assert quick.poll(ada, "ada", rated=True)["waiting"] == 1
    assert quick.poll("g" * 32, "Guest") == {"waiting": 1}
    assert not Race.objects.exists()


def test_a_guest_may_not_wait_for_a_rated_race(browser):
    answer = post(browser, "/api/quick/", {"rated": True})
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "rated_needs_account"
    assert not QuickSeat.objects.exists()
    assert post(browser, "/api/quick/", {"rated": "yes"}).json()["error"]["code"] == "bad_field"


def test_the_lobby_offers_accounts_a_rated_quick_race_and_guests_none(client):
    assert b'value="rated"' not in client.get("/").content
    assert b'value="rated"' in signed_up("ada").get("/").content


# --- what players read --------------------------------------------------------------------


def test_the_board_the_profile_and_the_api_agree_with_the_stored_ratings(monkeypatch):
    ada_beats_bob()
    ada_beats_bob()
    ada_user, bob_user = User.objects.get(username="ada"), User.objects.get(username="bob")
    api = Client().get("/api/players/ada/").json()
    account = Account.objects.get(user=ada_user)
    assert api["rating"] == round(account.rating) and api["deviation"] == round(account.deviation)
    assert api["rated"] == {"won": 2, "lost": 0}
    changes = RatingChange.objects.filter(user=ada_user).order_by("at")
    assert [line["rating"] for line in api["history"]] == [round(c.rating_after) for c in changes]
    assert Client().get("/api/players/bob/").json()["rated"] == {"won": 0, "lost": 2}
    board = Client().get("/api/ratings/").json()
    assert [(line["name"], line["rating"]) for line in board["entries"]] == [
        ("ada", api["rating"]),
        ("bob", round(Account.objects.get(user=bob_user).rating)),
    ]
    monkeypatch.setattr(player_ratings, "BOARD", 1)
    bob = Client()
    bob.force_login(bob_user)
    page = bob.get("/ratings/")
    assert [line["name"] for line in page.context["lines"]] == ["ada"]
    assert page.context["you"]["rank"] == 2 and page.context["you_below"]
    assert b'class="you" aria-current="true"' in page.content
    profile = Client().get("/players/ada/")
    assert profile.context["rating_history"][-1]["rating"] == api["rating"]
    assert b'id="rating-chart"' in profile.content


def test_an_account_away_for_months_grows_less_sure_and_its_next_race_starts_from_that():
    ada_beats_bob()
    assert Account.objects.get(user__username="ada").rated_at is not None
    Account.objects.filter(user__username="ada").update(
        rating=1700, deviation=60, rated_games=40, rated_at=timezone.now()
    )
    settled = Account.objects.get(user__username="ada")
    assert Client().get("/api/players/ada/").json()["provisional"] is False
    away = timezone.now() - timedelta(days=100)
    Account.objects.filter(pk=settled.pk).update(rated_at=away)
    grown = glicko2.idle(glicko2.Rating(settled.rating, settled.deviation, settled.volatility), 100)
    assert grown.deviation >= 110
    api = Client().get("/api/players/ada/").json()
    assert (api["rating"], api["deviation"]) == (round(settled.rating), round(grown.deviation))
    assert api["provisional"] is True and api["rating"] == round(settled.rating)
    board = Client().get("/ratings/")
    assert board.context["lines"][0]["name"] == "ada" and board.context["lines"][0]["provisional"]
    race, _ = ada_beats_bob()
    first = RatingChange.objects.get(race=race, user__username="ada")
    assert first.deviation_before == pytest.approx(grown.deviation)
    ada = Account.objects.get(pk=settled.pk)
    assert ada.deviation == pytest.approx(first.deviation_after)
    assert ada.rated_at == race.finished_at


def test_an_unknown_player_is_a_404_in_english():
    answer = Client().get("/api/players/nobody/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def test_the_read_api_is_rate_limited(settings):
    settings.HALFMOON_READ_ADDRESS_LIMIT = "2/60"
    client = Client()
    assert [client.get("/api/ratings/").status_code for _ in range(3)] == [200, 200, 429]


def statements_of(url):
    """The statements a guest's view of `url` runs."""
    with CaptureQueriesContext(connection) as seen:
        assert Client().get(url).status_code == 200
    return len(seen.captured_queries)


def test_a_profile_reads_as_many_statements_for_three_rated_races_as_for_one():
    """Its games, rating history and follow lists are read a list at a time: a field of a
    row read later, one by one, would add a statement a game."""
    ada_beats_bob()
    ada, bob = (User.objects.get(username=name) for name in ("ada", "bob"))
    Follow.objects.create(follower=bob, followed=ada)
    one = statements_of("/players/ada/")
    ada_beats_bob()
    ada_beats_bob()
    assert statements_of("/players/ada/") == one
    page = Client().get("/players/ada/").content.decode()
    assert page.count("Standings</a>") == 3  # a row a game
    assert len(player_ratings.history(ada)) == 3
    assert 'href="/players/bob/"' in page  # among Ada's followers
