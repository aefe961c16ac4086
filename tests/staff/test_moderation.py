"""
Moderation: staff disqualify a result or hide a name from the leaderboards, from
the list of results the fair-play checks flagged; every act is logged with who
and why, and the boards change at once.
"""

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.base import days
from game.events import play, standings
from game.friends import challenges, follows
from game.models import Entry, EventEntry, NameReview, Review
from tests.events.test_events import running_event
from tests.race.test_fair_play import A_DAY, daily_result

pytestmark = pytest.mark.django_db
FLAGGED = "/admin/game/review/flagged/"
NAMES = "/admin/game/review/names/"
DAY = A_DAY - datetime.timedelta(days=1)


@pytest.fixture(autouse=True)
def a_day(monkeypatch):
    monkeypatch.setattr(days, "today", lambda: A_DAY)


def board(date=DAY, **headers):
    """(rank, name) of each line of a day's ranked board, as anyone reads it."""
    rows = Client().get(f"/daily/{date.isoformat()}/", **headers).context["rows"]
    return [(row["rank"], row["name"]) for row in rows]


def all_time_names():
    return [line["name"] for line in Client().get("/daily/all-time/").context["rows"]]


def entry_of(name):
    return Entry.objects.get(name=name)


def test_moderation_is_for_staff_only(client, django_user_model):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    for url in (FLAGGED, NAMES):
        assert client.get(url).url.startswith("/admin/login/")
    player = django_user_model.objects.create_user("ada", password="moon-race-42!")
    client.force_login(player)
    bot = entry_of("bot")
    refused = client.post(FLAGGED, {"entry": bot.pk, "action": "confirm", "reason": "me"})
    assert refused.url.startswith("/admin/login/")
    assert entry_of("bot").review == Entry.FLAGGED and not Review.objects.exists()


def test_disqualifying_a_result_removes_it_from_the_board_at_once(admin_client, admin_user):
    daily_result(DAY, "ada", ms=50_000)
    daily_result(DAY, "bob", ms=70_000)
    assert board() == [(1, "ada"), (2, "bob")] and all_time_names() == ["ada", "bob"]
    reason = "played on a shared account"
    answer = admin_client.post(
        FLAGGED, {"entry": entry_of("ada").pk, "action": "disqualify", "reason": reason}
    )
    assert answer.status_code == 302
    assert board() == [(1, "bob")] and all_time_names() == ["bob"]
    month = Client().get("/daily/month/2025-03/").context["days"]
    assert next(line for line in month if line["date"] == DAY)["name"] == "bob"
    logged = Review.objects.get()
    assert (logged.entry, logged.staff, logged.decision, logged.reason) == (
        entry_of("ada"),
        admin_user,
        Entry.DISQUALIFIED,
        reason,
    )


def test_the_flagged_results_are_listed_with_links_to_act_on_them(admin_client):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    daily_result(DAY, "ada", ms=60_000)
    bot = entry_of("bot")
    page = admin_client.get(FLAGGED)
    assert [row["entry"] for row in page.context["rows"]] == [bot]
    html = page.content.decode()
    assert f'href="/admin/game/entry/{bot.pk}/change/"' in html
    assert f'href="/replay/{bot.race.room}/{bot.pk}/"' in html  # its day is over
    assert 'value="disqualify"' in html and 'value="hide_name"' in html
    assert board() == [(1, "ada")]
    admin_client.post(FLAGGED, {"entry": bot.pk, "action": "confirm", "reason": "a fast player"})
    assert admin_client.get(FLAGGED).context["rows"] == []
    assert board() == [(1, "bot"), (2, "ada")]


def test_a_decision_needs_a_reason(admin_client):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    answer = admin_client.post(
        FLAGGED, {"entry": entry_of("bot").pk, "action": "disqualify", "reason": "  "}
    )
    assert answer.status_code == 400 and not Review.objects.exists()
    assert entry_of("bot").review == Entry.FLAGGED


def test_a_hidden_name_is_shown_on_no_leaderboard_and_keeps_its_rank(admin_client, admin_user):
    daily_result(DAY, "rude", ms=40_000)
    daily_result(DAY, "ada", ms=60_000)
    answer = admin_client.post(
        NAMES, {"action": "hide_name", "username": "rude", "reason": "an offensive name"}
    )
    assert answer.status_code == 302
    assert board() == [(1, "Name hidden"), (2, "ada")]
    assert board(HTTP_ACCEPT_LANGUAGE="fr") == [(1, "Nom masqué"), (2, "ada")]
    for url in ("/daily/month/2025-03/", "/daily/all-time/", f"/daily/{DAY.isoformat()}/"):
        html = Client().get(url).content.decode()
        assert "rude" not in html and "Name hidden" in html, url
    api = json.loads(Client().get(f"/api/daily/{DAY.isoformat()}/leaderboard/").content)
    assert (api["entries"][0]["name"], api["entries"][0]["name_hidden"]) == ("Name hidden", True)
    logged = NameReview.objects.get()
    assert (logged.user.username, logged.staff, logged.hidden, logged.reason) == (
        "rude",
        admin_user,
        True,
        "an offensive name",
    )
    admin_client.post(NAMES, {"action": "show_name", "username": "rude", "reason": "renamed"})
    assert board() == [(1, "rude"), (2, "ada")]
    assert NameReview.objects.count() == 2


def test_a_flagged_players_name_is_hidden_from_the_flagged_list(admin_client):
    earlier = DAY - datetime.timedelta(days=1)
    daily_result(earlier, "b0t-king", ms=45_000)
    daily_result(DAY, "b0t-king", ms=5_000, review=Entry.FLAGGED)
    assert board(earlier) == [(1, "b0t-king")]
    flagged = Entry.objects.get(name="b0t-king", review=Entry.FLAGGED)
    admin_client.post(FLAGGED, {"entry": flagged.pk, "action": "hide_name", "reason": "spam"})
    assert board(earlier) == [(1, "Name hidden")]
    assert NameReview.objects.get().user == flagged.user
    assert Entry.objects.get(pk=flagged.pk).review == Entry.FLAGGED  # still waits for a decision


def test_hiding_the_name_of_no_account_is_refused(admin_client):
    answer = admin_client.post(NAMES, {"action": "hide_name", "username": "nobody", "reason": "x"})
    assert answer.status_code == 400 and not NameReview.objects.exists()


def _everywhere(race, event, **headers):
    """What anyone reads of a game and an event: replay page and JSON, the race's API
    answer, the event's page with its live standings."""
    player = Entry.objects.get(race=race).pk
    urls = (
        f"/replay/{race.room}/{player}/",
        f"/api/replays/{race.room}/{player}/",
        f"/api/races/{race.room}/",
        f"/events/{event.pk}/",
        "/players/ada/",  # whom ada's followers are
    )
    return "\n".join(Client().get(url, **headers).content.decode() for url in urls)


def test_a_hidden_name_is_hidden_in_replays_the_api_and_event_standings(admin_client):
    daily_result(DAY, "rude", ms=40_000)
    race = Entry.objects.get(name="rude").race
    event = running_event()
    rude = User.objects.get(username="rude")
    play.join(event, rude.account.player_key, "whatever")
    daily_result(DAY, "ada")
    follows.follow(rude, User.objects.get(username="ada"))
    assert "rude" in _everywhere(race, event)
    admin_client.post(NAMES, {"action": "hide_name", "username": "rude", "reason": "rude"})
    seen = _everywhere(race, event)
    assert "rude" not in seen and "Name hidden" in seen
    assert Client().get("/players/rude/").context["title"] == "Name hidden"  # its own page
    challenges.send(rude, User.objects.get(username="ada"))
    assert challenges.inbox(User.objects.get(username="ada"))["received"][0]["name"] == (
        "Name hidden"
    )
    assert "Nom masqué" in _everywhere(race, event, HTTP_ACCEPT_LANGUAGE="fr")
    assert [row[2] for row in standings.ranking(event.pk)] == ["Name hidden"]
    later = running_event()  # a game begun while it is hidden stores no name either
    play.join(later, rude.account.player_key, "rude")
    assert EventEntry.objects.get(event=later).name == "Name hidden"
    admin_client.post(NAMES, {"action": "show_name", "username": "rude", "reason": "renamed"})
    assert "rude" in _everywhere(race, event)


def test_the_admin_menu_leads_to_the_flagged_results_with_their_count(admin_client):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    for url in ("/admin/", "/admin/game/dailydeal/"):
        html = admin_client.get(url).content.decode()
        assert f'<a href="{FLAGGED}"' in html and "Flagged results (1)" in html


def test_only_results_that_would_rank_wait_for_a_decision(admin_client):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    guest = Entry.objects.create(
        race=entry_of("bot").race, player_key="g" * 32, name="guest", review=Entry.FLAGGED
    )
    assert [row["entry"] for row in admin_client.get(FLAGGED).context["rows"]] == [entry_of("bot")]
    menu = admin_client.get("/admin/").content.decode()
    assert guest.user is None and "Flagged results (1)" in menu


def test_the_reasons_read_as_words_not_codes(admin_client):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    html = admin_client.get(FLAGGED).content.decode()
    assert "quicker than a person can play" in html and "too_quick" not in html


def test_nobody_can_delete_the_moderation_log(admin_client, admin_user):
    daily_result(DAY, "bot", ms=5_000, review=Entry.FLAGGED)
    bot = entry_of("bot")
    admin_client.post(FLAGGED, {"entry": bot.pk, "action": "confirm", "reason": "a fast player"})
    review = Review.objects.get()
    listing = admin_client.get("/admin/game/review/").content.decode()
    assert "delete_selected" not in listing
    assert admin_client.get(f"/admin/game/review/{review.pk}/delete/").status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [review.pk], "post": "yes"}
    admin_client.post("/admin/game/review/", bulk)
    assert Review.objects.filter(pk=review.pk).exists()
    names = admin_client.get("/admin/game/namereview/").content.decode()
    assert "delete_selected" not in names
