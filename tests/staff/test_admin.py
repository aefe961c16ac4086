"""Staff curate deals in the admin: a numbered deal by its code, a custom one by its
layout (checked by the engine); each is analysed in the background once added."""

import pytest

from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.models import Deal, Entry, Move, Race
from game.race import actions
from game.solver import background
from tests.support.server import as_committed

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


def test_staff_add_a_numbered_deal_by_its_code_and_it_gets_analysed(
    admin_client, monkeypatch, django_capture_on_commit_callbacks
):
    started = []
    monkeypatch.setattr(background, "start", started.append)
    typed = {"deal_code": " hm1-n-aaaaabg ", "title": "", "notes": "", "piles": "", "reserve": ""}
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post("/admin/game/deal/add/", typed)
    deal = Deal.objects.get()
    assert (deal.code, deal.source) == ("HM1-N-AAAAABG", Deal.NUMBERED)
    assert response.url == f"/admin/game/deal/{deal.pk}/change/"
    assert deal.engine_deal() == EngineDeal.from_code("HM1-N-AAAAABG")
    assert started == [deal]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("HM1-X-1", "not a deal code"),
        ("HM1-C-ABCDEFG", "entered by its layout"),
        ("HM1-N-AAAAABG", "already in the list"),
    ],
)
def test_a_code_that_cannot_be_added_is_refused_with_the_reason(admin_client, typed, said):
    Deal.for_code("HM1-N-AAAAABG")
    form = {"deal_code": typed, "title": "", "notes": "", "piles": "", "reserve": ""}
    response = admin_client.post("/admin/game/deal/add/", form)
    assert response.status_code == 200 and said in response.content.decode()
    assert Deal.objects.count() == 1


def test_the_add_page_offers_a_code_or_a_layout(admin_client):
    html = admin_client.get("/admin/game/deal/add/").content.decode()
    assert 'name="deal_code"' in html and 'name="piles"' in html
    both = layout_form(EngineDeal.from_code(RULE_BOOK_DEAL), deal_code="HM1-N-AAAAABG")
    assert "not both" in admin_client.post("/admin/game/deal/add/", both).content.decode()
    nothing = admin_client.post("/admin/game/deal/add/", {"title": "", "notes": ""})
    assert "Give a numbered code" in nothing.content.decode() and not Deal.objects.exists()


def test_the_admin_is_for_staff_only(client):
    assert client.get("/admin/game/deal/").status_code == 302


@pytest.mark.parametrize("page", ["race", "entry", "dailydeal", "deal"])
def test_every_admin_list_renders(admin_client, page):
    assert admin_client.get(f"/admin/game/{page}/").status_code == 200


def test_every_time_in_the_admin_says_it_is_utc(admin_client):
    deal = Deal.for_code("HM1-N-AAAAABG")
    race = Race.objects.create(room="utc1", deal=deal)
    entry = Entry.objects.create(race=race, player_key="k" * 32, name="ada")
    event_form = admin_client.get("/admin/game/event/add/").content.decode()
    assert "Starts at (UTC)" in event_form
    assert "At (UTC)" in admin_client.get("/admin/game/eventschedule/add/").content.decode()
    for page in ("race", "entry", "deal"):
        html = admin_client.get(f"/admin/game/{page}/").content.decode()
        assert "at (UTC)" in html, page
    for page in (f"deal/{deal.pk}", f"race/{race.pk}", f"entry/{entry.pk}"):
        html = admin_client.get(f"/admin/game/{page}/change/").content.decode()
        assert "at (UTC)" in html, page
    sorted_by_time = admin_client.get("/admin/game/deal/?o=7")
    assert sorted_by_time.status_code == 200


def test_staff_see_a_finished_games_moves_once_they_are_packed(admin_client):
    """A flagged win is reviewed from its moves: packed once it is over (docs/storage.md)."""
    key = "k" * 32
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    for seq, slots in enumerate(RULE_BOOK_WIN, start=1):
        as_committed(actions.move, race.room, key, seq, slots)
    entry = Entry.objects.get()
    assert entry.status == Entry.WON and not Move.objects.exists()
    page = admin_client.get(f"/admin/game/entry/{entry.pk}/change/").content.decode()
    assert "1 move P1+P8 " in page and f"<br>{len(RULE_BOOK_WIN)} move P9+P2 " in page
