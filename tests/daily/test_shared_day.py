"""
The day's page shares what every reader sees (game/daily/shared_day.py): the day, its
board's top and the month's winners are read once a second per process, not per
reader; a new result is on the page once that part is a second old, the reader's own
result at once, and the page never shows yesterday's board under today's label.
"""

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game.base import days
from game.daily import shared_day
from game.deals import secrecy
from game.models import DailyDeal, Deal, Entry
from tests.race.test_fair_play import daily_result
from tests.support.server import signed_up

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def statements_of(client):
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/daily/")
    return page, [query["sql"] for query in queries]


def top(page):
    return [(line["rank"], line["name"], line["you"]) for line in page.context["top"]]


def test_the_second_reader_reads_neither_the_day_nor_its_board(clock):
    today = days.today()
    daily_result(today, "ada", ms=50_000)
    daily_result(today, "bob", ms=70_000)
    daily_result(today, "cy", ms=60_000, review=Entry.FLAGGED)  # not on the public board
    first, built = statements_of(Client())
    second, shared = statements_of(Client())
    assert len(shared) < len(built)
    day_or_board = ("FROM game_dailydeal", "e.ranked AND e.status")  # the day's row, the top
    assert [sql for sql in built if any(read in sql for read in day_or_board)]
    assert not [sql for sql in shared if any(read in sql for read in day_or_board)]
    public = Client().get(f"/daily/{today}/").context["rows"]
    shown = [(line["rank"], line["name"], False) for line in public]
    assert top(first) == top(second) == shown == [(1, "ada", False), (2, "bob", False)]


def test_an_account_sees_its_own_row_beside_the_shared_top(clock):
    today = days.today()
    daily_result(today, "bob", ms=70_000)
    Client().get("/daily/")  # a guest builds the shared part
    ada = signed_up("ada")
    daily_result(today, "ada", ms=50_000)  # after it was built
    page = ada.get("/daily/")
    assert page.context["you"]["rank"] == 1 and page.context["you"]["name"] == "ada"
    assert top(page) == [(1, "bob", False)]  # the board's top a second late
    clock[0] += shared_day.AGE_S
    assert top(ada.get("/daily/")) == [(1, "ada", True), (2, "bob", False)]


def test_a_new_result_is_on_the_page_once_the_shared_part_is_a_second_old(clock):
    today = days.today()
    guest = Client()
    assert top(guest.get("/daily/")) == []
    daily_result(today, "ada")
    clock[0] += shared_day.AGE_S - 0.01
    assert top(guest.get("/daily/")) == []
    clock[0] += 0.01
    page = guest.get("/daily/")
    assert (
        top(page) == [(1, "ada", False)]
        and "Nobody has a ranked result" not in page.content.decode()
    )


def test_the_day_changing_is_never_yesterdays_board_under_todays_label(clock, monkeypatch):
    yesterday = days.today()
    daily_result(yesterday, "ada")
    guest = Client()
    assert top(guest.get("/daily/")) == [(1, "ada", False)]
    today = yesterday + datetime.timedelta(days=1)
    deals = {"deal": Deal.for_code("HM1-N-AAAAAAD"), "guest_deal": Deal.for_code("HM1-N-AAAAAAE")}
    DailyDeal.objects.create(date=today, **deals)
    monkeypatch.setattr(days, "today", lambda: today)  # midnight: the clock has not moved
    page = guest.get("/daily/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.context["date"] == today and page.context["label"] == secrecy.daily_label(today)
    assert top(page) == [] and "Nobody has a ranked result today yet" in page.content.decode()


def test_a_newcomers_page_reads_nothing_of_theirs_and_shows_the_same(clock):
    daily_result(days.today(), "ada")
    returning = Client()
    returning.post("/daily/", {"name": ""})  # a name refused: a key kept, no attempt
    before, _ = statements_of(returning)
    page, statements = statements_of(Client())  # a browser that never came before
    assert not [sql for sql in statements if "game_entry" in sql or "game_race" in sql]
    assert top(page) == top(before) == [(1, "ada", False)]
    assert page.context["attempt"] is None and page.context["you"] is None
    assert page.context["month_days"] == before.context["month_days"]
    assert 'name="name"' in page.content.decode()
