"""
The archive of past days (/daily/archive/) and the streak's freezes as a player meets
them: every past day marked as the reader left it, a day that is over played later
unranked (on no board, no streak, in the day's "played later" list), today's deal and
the days to come never offered, a bad date a 404 page that says why; and a missed day
that spends a freeze on the profile and in the public API.
"""

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from game.base import days
from game.daily import day_board
from game.lobby import alone
from game.models import DailyDeal, Deal, Entry, Race
from game.race import actions
from tests.support.server import GUESTS_CODE, TODAYS_CODE, guest_key, signed_up

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]
PAST_CODE = "HM1-N-AAAAAAB"


def ago(n):
    return days.today() - datetime.timedelta(days=n)


def past_day(n, code=PAST_CODE):
    deals = {"deal": Deal.for_code(code), "guest_deal": Deal.for_code(GUESTS_CODE)}
    return DailyDeal.objects.get_or_create(date=ago(n), defaults=deals)[0]


def finish(race, status=Entry.WON, score=520):
    Entry.objects.filter(race=race).update(
        status=status, score=score, time_ms=90_000, finished_at=timezone.now()
    )


def won_attempt(day, key, name):
    """A finished, won attempt at `day` (a DailyDeal) by the player `key`."""
    race = alone.daily_race(day, key, name)
    finish(race)
    Entry.objects.filter(race=race).update(review=Entry.CLEAN)
    return race


def play_later(client, date):
    answer = client.post(f"/daily/{date.isoformat()}/play/")
    assert answer.status_code == 302, answer.content
    return Race.objects.get(room=answer["Location"].rstrip("/").rsplit("/", 1)[-1])


def test_a_past_day_played_later_is_unranked_and_listed_apart(client):
    day = past_day(3)
    race = play_later(client, day.date)
    assert (race.mode, race.daily_date, race.deal_id) == (Race.SOLO, day.date, day.deal_id)
    table = client.get(race.get_absolute_url()).content.decode()
    assert "played later" in table and "Not ranked" in table and PAST_CODE in table
    assert play_later(client, day.date) == race  # found again, not a second game
    finish(race)
    entry = Entry.objects.get(race=race)
    assert entry.daily_date is None and not entry.ranked
    assert day_board.daily_board(day, entry.player_key)["entries"] == []
    board = client.get(f"/daily/{day.date.isoformat()}/")
    assert [line["score"] for line in board.context["later"]] == [520]
    assert "Played later" in board.content.decode()


def archive_marks(client, date):
    """The marks of the archive's month of `date`, as `client` reads them, by day."""
    page = client.get(f"/daily/archive/{date:%Y-%m}/")
    assert TODAYS_CODE not in page.content.decode()  # today's deal is never named
    return {line["date"]: line["mark"] for line in page.context["lines"]}


def test_the_archive_marks_each_past_day_as_a_guest_left_it(client):
    won_day, later_day, untouched = past_day(1), past_day(2), past_day(3)
    key = guest_key(client)
    won_attempt(won_day, key, "ann")
    finish(play_later(client, later_day.date), status=Entry.RESIGNED, score=40)
    assert archive_marks(client, won_day.date)[won_day.date] == "won"
    assert archive_marks(client, later_day.date)[later_day.date] == "later"
    assert archive_marks(client, untouched.date)[untouched.date] == ""
    assert archive_marks(Client(), won_day.date)[won_day.date] == ""  # another browser's
    assert client.get("/daily/archive/").status_code == 200


def test_an_account_sees_its_own_days_in_the_archive():
    day = past_day(1)
    ada = signed_up("ada")
    won_attempt(day, User.objects.get(username="ada").account.player_key, "ada")
    assert archive_marks(ada, day.date)[day.date] == "won"


@pytest.mark.parametrize(
    "path",
    [
        "/daily/archive/2026-13/",
        "/daily/archive/nope/",
        "/daily/archive/9999-01/",
        "/daily/archive/1999-01/",
        "/daily/2026-02-30/play/",
        "/daily/not-a-date/play/",
    ],
)
def test_a_bad_month_or_date_is_a_404_page_that_says_why(client, path):
    past_day(1)
    answer = client.post(path) if path.endswith("/play/") else client.get(path)
    assert answer.status_code == 404
    assert b"looks like" in answer.content or b"There was no daily deal" in answer.content


def test_today_and_the_days_to_come_are_never_played_later(client):
    for date in (days.today(), days.today() + datetime.timedelta(days=1)):
        answer = client.post(f"/daily/{date.isoformat()}/play/")
        assert answer.status_code == 404 and b"Only a day that is over" in answer.content
    assert not Race.objects.filter(mode=Race.SOLO).exists()
    assert client.get(f"/daily/{ago(1).isoformat()}/play/").status_code == 405


def test_a_missed_day_spends_a_freeze_and_the_streak_survives():
    """Seven days won earn a freeze; the eighth day is missed and spends it; the ninth
    is won: a streak of 8 (the freeze no day played), one freeze used; and the missed
    day played later changes nothing."""
    ada = signed_up("ada")
    key = User.objects.get(username="ada").account.player_key
    for n in (9, 8, 7, 6, 5, 4, 3, 1):  # day 2 missed
        won_attempt(past_day(n), key, "ada")
    finish(play_later(ada, past_day(2).date))
    me = ada.get("/me/")
    stats = me.context["stats"]
    assert (stats["streak"], stats["freezes_used"], stats["freezes_held"]) == (8, 1, 0)
    assert (stats["days_played"], stats["days_won"]) == (8, 8)
    assert "8 · 1 freeze used" in me.content.decode()
    api = Client().get("/api/players/ada/").json()["stats"]
    assert (api["streak"], api["freezes_used"], api["freezes_held"]) == (8, 1, 0)
    cells = [cell for week in me.context["calendar"]["weeks"] for cell in week if cell]
    marks = {cell["date"]: cell["mark"] for cell in cells}
    assert marks.get(ago(2), "freeze") == "freeze"  # when this month holds it


def test_a_day_played_later_and_restarted_is_still_that_day_played_later(client):
    day = past_day(4)
    race = play_later(client, day.date)
    key = guest_key(client)
    actions.connect(race.room, key, "test-socket")
    actions.restart(race.room, key)
    race.refresh_from_db()
    assert (race.rematch.mode, race.rematch.daily_date) == (Race.SOLO, day.date)
    plain = alone.solo_race(day.deal, key, "ann")  # the same deal typed as a code
    assert plain.daily_date is None and plain != race.rematch
