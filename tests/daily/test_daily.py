"""
The daily deal: which deal a date gets, its page (one attempt per player per
day) and its leaderboard, as a page and as JSON.
"""

import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from game.base import days
from game.deals import daily
from game.engine import replay
from game.lobby import alone
from game.models import DailyDeal, Deal, Entry, Race
from game.players import identity
from tests.support.server import OLD_ENOUGH, guest_key, signed_up

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def test_the_daily_page_is_one_attempt_per_player_per_day(client, todays_deal):
    assert client.get("/daily/").templates[0].name == "game/daily.html"  # a name first
    started = client.post("/daily/", {"name": "Ada"})
    room = started.url.split("/")[2]
    assert Race.objects.get(room=room).entries.get().name == "Ada"
    again = client.post("/daily/", {"name": "Ada"})
    assert again.url == started.url  # "Play" again finds the same attempt
    first = client.get(started.url)
    assert first.context["mode"] == "daily" and first.context["deal_code"] is None
    day = client.get("/daily/")
    assert day.context["attempt"].room == room and "Back to your attempt" in day.content.decode()


def test_opening_the_daily_page_starts_no_attempt_for_an_account(todays_deal):
    client = signed_up("ada")
    page = client.get("/daily/")
    assert page.templates[0].name == "game/daily.html" and page.context["rule"] == "ranked"
    assert not Race.objects.filter(mode=Race.DAILY).exists()
    room = client.post("/daily/").url.split("/")[2]  # "Play"
    assert Race.objects.get(room=room).deal == todays_deal.deal


def test_a_young_account_is_told_before_it_plays_and_ranks_once_old_enough(todays_deal):
    client = signed_up("fresh", age=datetime.timedelta(hours=23))
    page = client.get("/daily/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.context["rule"] == "young" and "too new to rank" in page.content.decode()
    assert not Race.objects.filter(mode=Race.DAILY).exists()
    User.objects.filter(username="fresh").update(date_joined=timezone.now() - OLD_ENOUGH)
    assert client.get("/daily/").context["rule"] == "ranked"
    room = client.post("/daily/").url.split("/")[2]
    assert Race.objects.get(room=room).deal == todays_deal.deal  # the ranked deal


def test_a_finished_daily_shows_the_days_page_with_the_result(client, todays_deal):
    room = client.post("/daily/", {"name": "Ada"}).url.split("/")[2]
    now = timezone.now()
    Race.objects.filter(room=room).update(status=Race.FINISHED, started_at=now)
    Entry.objects.filter(race__room=room).update(
        status=Entry.RESIGNED, score=120, moves=9, finished_at=now, time_ms=61_000
    )
    page = client.get("/daily/")
    text = page.content.decode()
    assert page.templates[0].name == "game/daily.html" and "room" not in page.context
    assert "score 120, 9 moves, 1:01" in text and "among guests" in text


def test_the_leaderboard_ranks_finished_daily_attempts(client, todays_deal):
    now = timezone.now()
    for index, (name, status, score) in enumerate(
        [("Bob", "resigned", 200), ("Ada", "won", 520), ("Cy", "playing", 10)]
    ):
        race = alone.daily_race(todays_deal, f"{index}" * 32, name)
        Race.objects.filter(pk=race.pk).update(status=Race.RUNNING, started_at=now)
        Entry.objects.filter(race=race).update(
            status=status, score=score, finished_at=now, time_ms=60_000, ranked=status != "playing"
        )
    date = todays_deal.date.isoformat()
    page = client.get(f"/daily/{date}/")
    assert page.status_code == 200
    assert [(e["rank"], e["name"]) for e in page.context["entries"]] == [(1, "Ada"), (2, "Bob")]
    api = client.get(f"/api/daily/{date}/leaderboard/").json()
    assert api["deal_code"] is None and api["date"] == date
    assert [e["name"] for e in api["entries"]] == ["Ada", "Bob"]
    assert client.get("/daily/2001-01-01/").status_code == 404
    assert client.get("/daily/2001-13-01/").status_code == 404


def test_a_player_without_a_name_is_player_in_each_readers_language(client, todays_deal):
    alone.daily_race(todays_deal, guest_key(client), identity.DEFAULT_NAME)
    Entry.objects.update(status=Entry.RESIGNED, finished_at=timezone.now(), ranked=True)
    url = f"/daily/{todays_deal.date.isoformat()}/"
    for lang, word in (("fr", "Joueur"), ("ro", "Jucător"), ("en", "Player")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f"<td>{word}</td>" in page


def test_an_abandoned_daily_attempt_shows_up_as_timed_out(client, todays_deal):
    race = alone.daily_race(todays_deal, guest_key(client), "Ada")
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    # Its time ran out an hour ago (as an attempt's does 15 minutes after its day).
    Race.objects.filter(pk=race.pk).update(
        status=Race.RUNNING, started_at=long_ago, time_limit_s=60
    )
    Entry.objects.filter(race=race).update(status="playing")
    board = client.get(f"/api/daily/{todays_deal.date.isoformat()}/leaderboard/").json()
    assert (board["you"]["name"], board["you"]["status"]) == ("Ada", "timed_out")
    assert board["you"]["ranked"] is False and board["entries"] == []  # a guest's


def test_api_daily_names_the_deal_and_its_leaderboard(client, todays_deal):
    body = client.get("/api/daily/").json()
    iso = todays_deal.date.isoformat()
    assert body == {
        "date": iso,
        "next_deal_at": days.next_deal_ms(),
        "url": "/daily/",
        "leaderboard": f"/api/daily/{iso}/leaderboard/",
    }


def test_the_daily_deal_is_the_first_winnable_candidate_of_the_date(monkeypatch):
    date = datetime.date(2030, 1, 2)
    codes = list(daily.candidates(date))
    assert codes == list(daily.candidates(date)) and len(set(codes)) == len(codes)
    Deal.objects.create(code=codes[0], verdict="not_winnable")
    solved = []

    def fake_solve(deal):
        solved.append(deal.code)
        return "winnable"

    monkeypatch.setattr(daily, "_solve", fake_solve)
    chosen = daily.daily_deal(date)
    assert chosen.deal.code == codes[1] and solved == [codes[1]]
    assert daily.daily_deal(date) == chosen


def test_a_daily_candidate_is_analysed_and_its_verdict_stored():
    deal = Deal.for_code("HM1-N-AAAAAAB")
    assert daily._solve(deal) == "winnable"
    deal.refresh_from_db()
    assert deal.verdict == "winnable" and deal.solver_version and deal.difficulty_label
    won = replay(deal.engine_deal(), [tuple(move) for move in deal.winning_line])
    assert (won.status, won.score, won.moves) == ("won", 520, 48)


def test_a_day_without_a_proven_candidate_still_gets_a_deal(monkeypatch):
    monkeypatch.setattr(daily, "_solve", lambda deal: "unknown")
    date = datetime.date(2030, 3, 4)
    assert daily.daily_deal(date).deal.code == next(daily.candidates(date))


CANDIDATES_ELSEWHERE = """
import datetime, json, django
django.setup()
from game.deals import daily
print(json.dumps(list(daily.candidates(datetime.date(2030, 1, 2)))))
"""


def candidates_in_another_process(secret):
    """The candidates of 2 Jan 2030 as a fresh server process with `secret` computes them."""
    env = {**os.environ, "HALFMOON_DAILY_SECRET": secret}
    env.setdefault("DJANGO_SETTINGS_MODULE", "halfmoon_site.settings")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CANDIDATES_ELSEWHERE], cwd=root, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.decode().split("\n")[-2]


def test_the_days_candidates_come_from_the_secret(settings):
    date = datetime.date(2030, 1, 2)
    settings.HALFMOON_DAILY_SECRET = "one secret"
    first = list(daily.candidates(date))
    settings.HALFMOON_DAILY_SECRET = "another secret"
    second = list(daily.candidates(date))
    assert len(first) == len(second) == daily.CANDIDATES
    assert set(first).isdisjoint(second)  # nothing in common: not the date alone


def test_the_same_secret_gives_the_same_candidates_on_any_process(settings):
    import json

    settings.HALFMOON_DAILY_SECRET = "shared by every replica"
    here = list(daily.candidates(datetime.date(2030, 1, 2)))
    assert json.loads(candidates_in_another_process("shared by every replica")) == here
    assert json.loads(candidates_in_another_process("a replica misconfigured")) != here


def test_a_guest_plays_the_guests_deal_and_ranks_among_guests(client, todays_deal):
    now = timezone.now()
    for key, score in (("g" * 32, 300), ("h" * 32, 100)):  # two other guests
        race = alone.daily_race(todays_deal, key, "Other")
        Entry.objects.filter(race=race).update(
            status=Entry.RESIGNED, score=score, finished_at=now, review=Entry.CLEAN
        )
    client.post("/daily/", {"name": "Ada"})
    mine = Entry.objects.get(player_key=client.session[identity.PLAYER_KEY])
    assert mine.race.deal == todays_deal.guest_deal != todays_deal.deal
    Entry.objects.filter(pk=mine.pk).update(
        status=Entry.RESIGNED, score=200, finished_at=now, review=Entry.CLEAN
    )
    page = client.get(f"/daily/{todays_deal.date.isoformat()}/")
    you = page.context["you"]
    assert (you["rank"], you["guests"], you["ranked"], page.context["entries"]) == (
        2,
        True,
        False,
        [],  # the ranked board: accounts only
    )
    assert "among guests" in page.content.decode()
    label = client.get(mine.race.get_absolute_url()).context["deal_label"]
    assert label.startswith("Guests' deal · ")


def test_the_guests_deal_is_picked_once_from_candidates_of_its_own(monkeypatch):
    date = datetime.date(2030, 1, 2)
    ranked, guests = list(daily.candidates(date)), list(daily.candidates(date, daily.GUESTS))
    assert set(ranked).isdisjoint(guests)
    monkeypatch.setattr(daily, "_solve", lambda deal: "winnable")
    day = DailyDeal.objects.create(date=date, deal=Deal.for_code(guests[0]))  # staff's choice
    assert daily.guests_deal(day).code == guests[1]  # never the ranked deal itself
    monkeypatch.setattr(daily, "_solve", lambda deal: pytest.fail("picked twice"))
    assert daily.guests_deal(DailyDeal.objects.get(date=date)).code == guests[1]


@pytest.mark.parametrize(
    "lang, told",
    [
        ("en", "Your account is too new to rank"),
        ("fr", "Votre compte est trop récent pour être classé"),
        ("ca", "El vostre compte és massa nou per classificar-se"),
        ("ro", "Contul dvs. este prea nou pentru clasament"),
    ],
)
def test_a_young_account_is_told_in_its_language_before_it_plays(todays_deal, lang, told):
    client = signed_up(f"new-{lang}", age=datetime.timedelta(hours=1))
    page = client.get("/daily/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert told in page and not Race.objects.filter(mode=Race.DAILY).exists()
