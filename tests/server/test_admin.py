"""Staff curate deals in the admin; custom layouts are checked by the engine."""

import pytest

from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.models import Deal, Entry, Move, Race
from game.race import actions

pytestmark = pytest.mark.django_db


def layout_form(engine_deal, **changes):
    form = {
        "title": "Rule book, by hand",
        "notes": "",
        "piles": "\n".join(" ".join(pile) for pile in engine_deal.piles),
        "reserve": " ".join(engine_deal.reserve),
    }
    return {**form, **changes}


def test_staff_enter_a_custom_deal_and_it_gets_a_custom_code(admin_client):
    engine_deal = EngineDeal.from_code(RULE_BOOK_DEAL)
    response = admin_client.post("/admin/game/deal/add/", layout_form(engine_deal))
    assert response.status_code == 302, response.content
    deal = Deal.objects.get(source=Deal.CUSTOM)
    assert deal.code.startswith("HM1-C-") and len(deal.code) == 13
    assert deal.engine_deal() == engine_deal and deal.title == "Rule book, by hand"
    assert Deal.for_code(deal.code.lower()) == deal
    page = admin_client.get(f"/admin/game/deal/{deal.pk}/change/")
    assert page.status_code == 200 and b"P1: " in page.content


def test_a_layout_that_is_not_a_deal_is_refused_with_the_reason(admin_client):
    engine_deal = EngineDeal.from_code(RULE_BOOK_DEAL)
    reserve = " ".join(engine_deal.reserve[:-1] + ("5S",))
    response = admin_client.post("/admin/game/deal/add/", layout_form(engine_deal, reserve=reserve))
    assert response.status_code == 200
    assert b"exactly twice" in response.content
    bad_card = admin_client.post("/admin/game/deal/add/", layout_form(engine_deal, reserve="ZZ"))
    assert b"not a card" in bad_card.content
    assert not Deal.objects.exists()


def test_the_admin_is_for_staff_only(client):
    assert client.get("/admin/game/deal/").status_code == 302


@pytest.mark.parametrize("page", ["race", "entry", "dailydeal", "deal"])
def test_every_admin_list_renders(admin_client, page):
    assert admin_client.get(f"/admin/game/{page}/").status_code == 200


def test_staff_see_a_finished_games_moves_once_they_are_packed(admin_client):
    """A flagged win is reviewed from its moves: packed once it is over (docs/storage.md)."""
    key = "k" * 32
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    for seq, slots in enumerate(RULE_BOOK_WIN, start=1):
        actions.move(race.room, key, seq, slots)
    entry = Entry.objects.get()
    assert entry.status == Entry.WON and not Move.objects.exists()
    page = admin_client.get(f"/admin/game/entry/{entry.pk}/change/").content.decode()
    assert "1 move P1+P8 " in page and f"<br>{len(RULE_BOOK_WIN)} move P9+P2 " in page
