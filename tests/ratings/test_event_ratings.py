"""
A rated event moves ratings once it ends: its final standings are one rating period,
each account against its neighbours in them (game/ratings/pairs.py `neighbours`), the
accounts playing through the real pages and actions. Once only, even when two
processes finish it at once; an unrated event moves nothing; a flagged win holds
its player's rating until staff confirm it, and a disqualification gives the points
back; the final standings and the profile show what the event did; the daily job
finishes an event whose end nobody watched.
"""

import threading

import pytest
from django.db import connection
from django.test import Client

from game.events import standings
from game.models import Account, Entry, EventEntry, RatedPair, RatingChange
from game.race import actions
from game.ratings import glicko2, pairs
from game.results import rated
from game.staff import moderation
from tests.events.test_events import end_event, running_event
from tests.support.server import WIN, signed_up, win_at_a_persons_pace, win_on_clock

pytestmark = pytest.mark.django_db
START = glicko2.Rating()
PLAYERS = ("ada", "bob", "cy", "dee", "eve")


def account_joined(event, name):
    """A browser logged in as a new account `name` that joined `event`, and its key."""
    client = signed_up(name)
    answer = client.post(f"/events/{event.pk}/", {"name": name})
    assert answer.status_code == 302, answer.content
    return client, Account.objects.get(user__username=name).player_key


def first_game(event, client, key):
    """The player's first deal, opened as the event's play page opens it."""
    assert client.get(f"/events/{event.pk}/play/").status_code == 302
    race = Entry.objects.get(player_key=key, race__event_game__entry__event=event).race
    actions.connect(race.room, key, "socket")
    return race


def played(rated=True, clean=True):
    """Five accounts in an event: Ada wins its first deal (at a person's pace, or as
    fast as a script: flagged), Bob plays two pairs and Cy one before giving up, Dee
    gives up at once, Eve never opens a table. Returns (event, {name: browser})."""
    event = running_event(rated=rated)
    clients, keys = {}, {}
    for name in PLAYERS:
        clients[name], keys[name] = account_joined(event, name)
    win = win_at_a_persons_pace if clean else win_on_clock
    win(first_game(event, clients["ada"], keys["ada"]), keys["ada"])
    for name, pairs_played in (("bob", 2), ("cy", 1), ("dee", 0)):
        race = first_game(event, clients[name], keys[name])
        for seq in range(1, pairs_played + 1):
            actions.move(race.room, keys[name], seq, WIN[seq - 1])
        actions.resign(race.room, keys[name])
    return event, clients


def final_rank(name):
    return EventEntry.objects.get(name=name).rank


def best_event_rank(name):
    return Client().get(f"/players/{name}/").context["events"]["best_rank"] or "—"


def rating(name):
    account = Account.objects.get(user__username=name)
    return account.rating, account.deviation, account.volatility


def expected(event, names):
    """What the pure rule makes of the final standings of `names`, all from 1500 ± 350."""
    entries = EventEntry.objects.filter(event=event, name__in=names).order_by("rank", "pk")
    games = pairs.neighbours([(entry.name, entry.rank) for entry in entries])
    return {
        name: glicko2.rate(START, [(START, score) for _, score in games[name]]) for name in names
    }


def assert_rated_as(want):
    for name, after in want.items():
        assert rating(name) == pytest.approx((after.rating, after.deviation, after.volatility)), (
            name
        )


def test_a_rated_event_moves_each_account_against_its_neighbours_once():
    event, clients = played()
    end_event(event)
    page = clients["ada"].get(f"/events/{event.pk}/").content.decode()  # the end, as read
    ranks = dict(EventEntry.objects.filter(event=event).values_list("name", "rank"))
    assert [ranks[name] for name in ("ada", "bob", "cy")] == [1, 2, 3]
    want = expected(event, ["ada", "bob", "cy", "dee"])
    assert_rated_as(want)
    assert rating("ada")[0] > rating("bob")[0] > rating("cy")[0] > rating("dee")[0]
    assert rating("eve") == (START.rating, START.deviation, START.volatility)  # no game
    change = round(want["ada"].rating) - 1500
    assert f"rating {round(want['ada'].rating)}? (+{change})" in page
    assert RatingChange.objects.filter(event_entry__event=event).count() == 4
    assert RatedPair.objects.filter(event=event).count() == 6  # four players, every pair
    once = {name: rating(name) for name in PLAYERS}
    standings.finish(event)
    rated.settle_event(event)
    assert {name: rating(name) for name in PLAYERS} == once
    assert RatingChange.objects.count() == 4 and RatedPair.objects.count() == 6


def test_the_profile_and_the_api_show_the_event_in_the_rating_history():
    event, _ = played()
    end_event(event)
    standings.finish(event)
    profile = Client().get("/players/bob/")
    line = profile.context["rating_history"][-1]
    assert line["event"] == {"id": event.pk, "title": "Evening race"} and line["room"] is None
    assert line["rating"] == round(rating("bob")[0]) and line["change"] > 0
    assert b'id="rating-chart"' in profile.content
    api = Client().get("/api/players/bob/").json()
    assert api["history"][-1]["event"] == {"id": event.pk, "title": "Evening race"}
    assert api["rated"] == {"won": 1, "lost": 0}  # beat Cy and Dee, lost to Ada
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "data-event-rating" not in page  # a reader who did not play has no line


def test_the_daily_job_finishes_a_rated_event_whose_end_nobody_watched():
    event, _ = played()
    end_event(event)
    assert standings.finish_ended() == 1  # nobody watched its end, nobody read its page
    assert_rated_as(expected(event, ["ada", "bob", "cy", "dee"]))
    assert standings.finish_ended() == 0


def test_an_unrated_event_moves_no_rating():
    event, clients = played(rated=False)
    end_event(event)
    page = clients["ada"].get(f"/events/{event.pk}/").content.decode()
    assert EventEntry.objects.get(event=event, name="ada").rank == 1
    assert all(rating(name) == (1500, 350, 0.06) for name in PLAYERS)
    assert not RatingChange.objects.exists() and not RatedPair.objects.exists()
    assert "data-event-rating" not in page


def test_a_flagged_win_holds_its_player_s_rating_until_staff_decide(admin_user):
    event, clients = played(clean=False)
    ada_game = Entry.objects.get(user__username="ada", race__event_game__entry__event=event)
    assert ada_game.review == Entry.FLAGGED
    end_event(event)
    page = clients["ada"].get(f"/events/{event.pk}/").content.decode()
    assert "rating: awaiting review" in page
    assert rating("ada") == (1500, 350, 0.06)
    assert_rated_as(expected(event, ["bob", "cy", "dee"]))  # the others do not wait
    assert final_rank("ada") > final_rank("bob") == 1  # held: no final rank 1 unconfirmed
    assert best_event_rank("ada") == "—"
    moderation.decide(ada_game, admin_user, Entry.CONFIRMED, "watched the replay: a person")
    assert_rated_as(expected(event, ["ada", "bob", "cy", "dee"]))
    page = clients["ada"].get(f"/events/{event.pk}/").content.decode()
    assert "awaiting review" not in page and "(+" in page
    assert final_rank("ada") == 1 and best_event_rank("ada") == 1
    moderation.decide(ada_game, admin_user, Entry.DISQUALIFIED, "a script after all")
    assert rating("ada") == pytest.approx((1500, 350, 0.06))  # the points given back
    assert_rated_as(expected(event, ["bob", "cy", "dee"]))
    assert not RatedPair.objects.filter(event=event, low__username="ada").exists()
    assert not RatedPair.objects.filter(event=event, high__username="ada").exists()


def test_the_day_s_cap_between_two_accounts_counts_an_event_s_pairs(settings):
    settings.HALFMOON_RATED_PAIR_DAILY = 0
    event, _ = played()
    end_event(event)
    standings.finish(event)
    assert all(rating(name) == (1500, 350, 0.06) for name in PLAYERS)
    assert not RatedPair.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_processes_finishing_an_event_at_once_rate_it_once():
    event, _ = played()
    end_event(event)
    ready, failures = threading.Barrier(2), []

    def finish():
        try:
            ready.wait()
            standings.finish(event)
        except Exception as exc:  # the test reports it below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert_rated_as(expected(event, ["ada", "bob", "cy", "dee"]))
    assert RatingChange.objects.count() == 4 and RatedPair.objects.count() == 6
