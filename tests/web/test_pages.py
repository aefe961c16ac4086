"""The page templates in every language, without a browser."""

import json

import pytest

from game.templatetags.halfmoon import duration

PAGES = {
    "en": ("New game", "Move errors", "Placement help", "The sum must equal 11"),
    "fr": (
        "Nouvelle partie",
        "Erreurs de mouvement",
        "Aide au placement",
        "La somme doit être égale à 11",
    ),
    "ca": (
        "Partida nova",
        "Errors de moviment",
        "Ajuda per col·locar",
        "La suma ha de ser igual a 11",
    ),
    "ro": (
        "Partidă nouă",
        "Erori de mutare",
        "Ajutor la plasare",
        "Suma trebuie să fie egală cu 11",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", sorted(PAGES))
def test_the_table_and_its_client_speak_the_browsers_language(client, lang):
    new_game, move_errors, placement_help, sum_not_11 = PAGES[lang]
    page = client.get("/play/HM1-N-AAAAAAB/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'<html lang="{lang}">' in page
    for text in (new_game, move_errors, placement_help):
        assert text in page
    assert 'data-ws-path="/ws/race/' in page
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    if lang != "en":
        assert json.dumps(sum_not_11) in catalog  # the catalog escapes non-ASCII


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "status", "reason"),
    [
        ("HM1-X-NOPE", 400, "„HM1-X-NOPE” nu este un cod de distribuție."),
        ("HM1-C-ZZZZZZZ", 404, "Nicio distribuție personalizată nu are codul HM1-C-ZZZZZZZ."),
    ],
)
def test_the_lobby_says_why_a_deal_code_does_not_work_in_romanian(client, code, status, reason):
    response = client.get(f"/play/{code}/", HTTP_ACCEPT_LANGUAGE="ro")
    page = response.content.decode()
    assert response.status_code == status
    assert "Acest cod de distribuție nu funcționează." in page and reason in page
    assert "not a deal code" not in page and "no custom deal" not in page


@pytest.mark.django_db
def test_a_404_page_gives_its_reason_in_romanian_and_the_api_in_english(client):
    page = client.get("/race/NOROOM/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    assert "Cursa NOROOM nu există." in page
    assert "Resolver404" not in client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    api = client.get("/api/daily/1999-01-01/leaderboard/", HTTP_ACCEPT_LANGUAGE="ro")
    assert api.json()["error"] == {
        "code": "not_found",
        "message": "There was no daily deal on 1999-01-01.",
    }


@pytest.mark.django_db
def test_the_leaderboard_draws_no_chart_before_anyone_finishes(client):
    page = client.get("/daily/").content.decode()
    assert 'id="next-deal"' in page
    day = client.get("/api/daily/").json()["date"]
    board = client.get(f"/daily/{day}/").content.decode()
    assert "Nobody has finished this deal yet" in board
    assert '<svg class="chart"' not in board


@pytest.mark.parametrize(
    ("ms", "shown"), [(None, "—"), (0, "0:00"), (83_000, "1:23"), (3_723_000, "1:02:03")]
)
def test_durations_read_like_the_info_bar(ms, shown):
    assert duration(ms) == shown
