"""
The daily deal explorer (/daily/<date>/explorer/): a finished day's games as a tree
of moves, counted from the stored moves, stored once the day is over, refused before.
"""

import datetime
import itertools
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from game.base import days
from game.daily import explorer
from game.engine import Game
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal, Deal, Entry, Move, Race
from game.race import actions
from tests.support.server import GUESTS_CODE

pytestmark = pytest.mark.django_db

KEYS = (f"{n:032d}" for n in itertools.count(1))


def past_day(ago=2):
    return DailyDeal.objects.create(
        date=days.today() - datetime.timedelta(days=ago),
        deal=Deal.for_code(RULE_BOOK_DEAL),
        guest_deal=Deal.for_code(GUESTS_CODE),
    )


def attempt(day, rows, status, deal=None):
    """A finished attempt at `day`: its stored rows ("undo" or a move's slots)."""
    race = actions.create_race(
        deal or day.deal, next(KEYS), mode=Race.DAILY, name="Ada", daily_date=day.date
    )
    entry = race.entries.get()
    at, line = timezone.now(), []
    for seq, row in enumerate(rows, start=1):
        undo = row == "undo"
        slots = line.pop() if undo else line.append(row) or row  # an undo names what it took back
        Move.objects.create(
            entry=entry, seq=seq, kind="undo" if undo else "move", slots=slots, at=at
        )
    Race.objects.filter(pk=race.pk).update(status=Race.FINISHED, started_at=at, finished_at=at)
    Entry.objects.filter(pk=entry.pk).update(status=status, seq=len(rows), finished_at=at)


def legal(*played):
    game = Game(Deal.for_code(RULE_BOOK_DEAL).engine_deal())
    for move in played:
        game.remove(move)
    return game.legal_moves()


def counts(page):
    return [(n["path"], n["games"], n["won"]) for n in page.context["nexts"]]


@pytest.fixture
def known_day():
    """Six games on the day's deal (one through an undo), one on the guests' deal."""
    day = past_day()
    a, c = legal()[:2]
    b1, b2 = legal(a)[:2]
    attempt(day, [a, b1], "won")
    attempt(day, [a, b1], "resigned")
    attempt(day, [a, b2], "won")
    attempt(day, [c], "resigned")
    attempt(day, [c, "undo", a, b2], "won")  # its line is a, b2
    attempt(day, [], "timed_out")
    attempt(day, [a], "won", deal=day.guest_deal)  # another deal: not in this tree
    return day, [explorer.move_key(m) for m in (a, c, b1, b2)]


def test_the_explorer_counts_every_move_of_a_finished_days_games(client, known_day):
    day, (a, c, b1, b2) = known_day
    url = f"/daily/{day.date.isoformat()}/explorer/"
    root = client.get(url)
    assert root.status_code == 200
    assert (root.context["games"], root.context["won"]) == (6, 3)
    assert counts(root) == [(a, 4, 3), (c, 1, 0)]
    assert root.context["deal_code"] == RULE_BOOK_DEAL
    assert f'href="?line={a}"' in root.content.decode()
    deeper = client.get(url, {"line": a})
    assert (deeper.context["games"], deeper.context["won"]) == (4, 3)
    assert counts(deeper) == [(f"{a}.{b2}", 2, 2), (f"{a}.{b1}", 2, 1)]
    assert [step["path"] for step in deeper.context["trail"]] == [a]
    assert deeper.context["cards_left"] == 104 - len(a.split("-"))
    leaf = client.get(url, {"line": f"{a}.{b2}"})
    assert leaf.context["nexts"] == [] and leaf.context["won"] == 2
    assert "No game went further from here." in leaf.content.decode()
    assert "Ada" not in root.content.decode()  # no names


def test_the_tree_is_stored_once_and_by_the_daily_job(client, known_day):
    day, (a, *_rest) = known_day
    empty = past_day(ago=3)
    out = StringIO()
    call_command("daily_upkeep", "--days", "0", "--workers", "1", stdout=out, stderr=StringIO())
    assert "explorer stored for 2 finished days" in out.getvalue()
    stored = DailyDeal.objects.get(pk=day.pk).explorer
    assert stored["n"] == 6 and stored["c"][a]["w"] == 3
    assert DailyDeal.objects.get(pk=empty.pk).explorer == {"n": 0, "w": 0}
    Move.objects.all().delete()  # the stored tree is what the page reads
    page = client.get(f"/daily/{day.date.isoformat()}/explorer/", {"line": a})
    assert page.context["games"] == 4
    assert explorer.store_finished() == 0


def test_todays_explorer_is_refused_until_the_day_is_over(client, todays_deal):
    attempt(todays_deal, [legal()[0]], "won")
    for date in (days.today(), days.today() + datetime.timedelta(days=1)):
        page = client.get(f"/daily/{date.isoformat()}/explorer/")
        assert page.status_code == 403
        assert 'data-error="daily_locked"' in page.content.decode()
        assert "stay secret until the day is over" in page.content.decode()
    assert DailyDeal.objects.get(pk=todays_deal.pk).explorer is None
    board = client.get(f"/daily/{days.today().isoformat()}/").content.decode()
    assert "/explorer/" not in board


def test_a_day_without_games_shows_an_empty_tree_and_its_board_links_it(client):
    day = past_day()
    url = f"/daily/{day.date.isoformat()}/explorer/"
    page = client.get(url)
    assert page.status_code == 200 and page.context["games"] == 0 and page.context["nexts"] == []
    assert "Nobody played this deal that day." in page.content.decode()
    assert f'href="{url}"' in client.get(f"/daily/{day.date.isoformat()}/").content.decode()


def test_a_bad_date_or_line_is_a_clear_404(client):
    day = past_day()
    assert (
        "A date looks like 2026-11-29."
        in client.get("/daily/2026-13-01/explorer/").content.decode()
    )
    nothing = client.get("/daily/2001-01-01/explorer/")
    assert (
        nothing.status_code == 404
        and "There was no daily deal on 2001-01-01." in nothing.content.decode()
    )
    url = f"/daily/{day.date.isoformat()}/explorer/"
    for line in ("P1-P2", "nonsense", ".", "P1-P2." * 100):
        page = client.get(url, {"line": line})
        assert page.status_code == 404
        assert "No game of this day went this way." in page.content.decode()


def test_the_explorer_speaks_french(client, known_day):
    day, (a, *_rest) = known_day
    page = client.get(
        f"/daily/{day.date.isoformat()}/explorer/", {"line": a}, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Explorateur de la donne" in page and "Coup suivant" in page
    assert "pile 1 :" in page  # the position in the French rule book's words


def test_packed_games_build_the_same_tree_as_their_rows(known_day):
    """Old data: finished games still in rows, packed by `manage.py pack_moves`; the
    one whose row is no move of its deal (made by hand) keeps it, and is read as before."""
    day, _ = known_day
    before = explorer.build(day)
    out = StringIO()
    call_command("pack_moves", stdout=out)
    assert "6 finished games packed" in out.getvalue()
    unpacked = Entry.objects.get(packed_moves__isnull=True)
    assert unpacked.race.deal == day.guest_deal
    assert list(Move.objects.values_list("entry", flat=True)) == [unpacked.pk]
    assert explorer.build(day) == before
    call_command("pack_moves", stdout=out)
    assert "0 finished games packed" in out.getvalue()
