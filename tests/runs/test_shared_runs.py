"""
A finished game shared (issue 35): its line of text, its page and image card name no
card and no hidden code; whoever follows the link races its ghost once they may play
its deal (today's: after their own attempt); any run one may watch is raced from its
replay, and "Play on from here" starts a sandbox at a replay's or an explorer's
position, never on a deal whose code is still secret. Bad links are 404 pages.
"""

import datetime
import html
import re

import pytest
from django.test import Client
from django.utils import timezone

from game.base import days
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import Deal, Entry, Race, SharedRun
from game.race import actions
from game.results import games, move_log
from game.runs import shares
from tests.daily.test_ghosts import CARD, done_attempt, guest, key_of, rule_book_layout
from tests.support.server import (
    WIN,
    new_session,
    ranked_daily_win,
    signed_up,
    win_at_a_persons_pace,
)

pytestmark = pytest.mark.django_db(transaction=True)
TOKEN = re.compile(r"/shared/([A-Za-z0-9_-]{22})/")


@pytest.fixture
def today():
    return rule_book_layout(days.today())


def share(client, room):
    return client.post(f"/api/races/{room}/share/", "{}", content_type="application/json")


def todays_shared_win(today):
    """Ada wins today's ranked deal in her browser and shares it: (her browser, answer)."""
    ada = signed_up("ada")
    attempt = alone.daily_race(today, key_of(ada), "ada")
    win_at_a_persons_pace(attempt, key_of(ada))
    return ada, share(ada, attempt.room)


def page_parts(html):
    """What a page says: its main part and its meta tags (not the site icon's data URL)."""
    main = html[html.index("<main") : html.index("</main>")]
    return main + "".join(re.findall(r"<meta [^>]*>", html))


def no_secret_in(text, today):
    assert not CARD.search(text), CARD.search(text)
    assert today.deal.code not in text and today.guest_deal.code not in text


def test_a_shared_win_of_today_says_how_it_went_and_names_no_card_nor_code(today):
    ada, answer = todays_shared_win(today)
    assert answer.status_code == 200
    shared = answer.json()
    lines = shared["text"].splitlines()
    assert lines[0].startswith("Half Moon Race · Daily deal · ")
    assert lines[1].startswith("Won · score 520 · 48 moves · 2:") and lines[1].endswith(" · #1")
    assert len(lines[2]) == 8 and lines[2].endswith("🌕") and set(lines[2]) <= set("🌑🌒🌓🌔🌕")
    no_secret_in(shared["text"] + shared["url"], today)
    assert TOKEN.search(shared["url"]) and shared["image"] == shared["url"] + "card.svg"
    again = share(ada, Entry.objects.get(user__username="ada").race.room).json()
    assert again["url"] == shared["url"]  # one link a game
    assert SharedRun.objects.count() == 1


def test_a_follower_sees_the_facts_then_races_the_ghost_after_its_own_attempt(today):
    _ada, answer = todays_shared_win(today)
    path = TOKEN.search(answer.json()["url"]).group(0)
    page = guest().get(path)
    shown = page.content.decode()
    assert page.status_code == 200
    no_secret_in(page_parts(shown), today)
    assert 'property="og:image"' in shown and "card.svg" in shown and "Play today" in shown
    assert "Race this game" not in shown  # a guest plays the guests' deal: not this one today
    card = guest().get(f"{path}card.svg")
    assert card["Content-Type"].startswith("image/svg+xml") and "max-age" in card["Cache-Control"]
    no_secret_in(card.content.decode(), today)
    assert "520" in card.content.decode()

    bob = signed_up("bob")
    assert bob.post(f"{path}race/").url == path  # before his attempt: back to the page
    assert not Race.objects.filter(mode=Race.GHOST).exists()
    done_attempt(bob, today)
    assert "Race this game" in bob.get(path).content.decode()
    raced = bob.post(f"{path}race/")
    race = Race.objects.get(room=raced.url.split("/")[2])
    assert (race.mode, race.daily_date, race.ghost_of.name) == (Race.GHOST, today.date, "ada")
    no_secret_in(page_parts(bob.get(raced.url).content.decode()), today)


def test_after_the_day_the_link_still_races_and_offers_the_replay_to_anyone():
    yesterday = rule_book_layout(days.today() - datetime.timedelta(days=1))
    entry = ranked_daily_win(yesterday, "ada")
    run = SharedRun.objects.create(entry=entry, token="A" * 22)
    client = guest()
    shown = client.get("/shared/AAAAAAAAAAAAAAAAAAAAAA/").content.decode()
    assert "Race this game" in shown and f"/replay/{entry.race.room}/{entry.pk}/" in shown
    raced = client.post(f"/shared/{run.token}/race/")
    assert Race.objects.get(room=raced.url.split("/")[2]).ghost_of == entry
    replay = client.get(f"/replay/{entry.race.room}/{entry.pk}/").content.decode()
    assert "Race this game" in replay and "Play on from here" in replay
    from_replay = client.post(f"/replay/{entry.race.room}/{entry.pk}/race/")
    assert from_replay.url == raced.url  # the same unfinished ghost race
    profile = client.get("/players/ada/").content.decode()
    assert f'action="/replay/{entry.race.room}/{entry.pk}/race/"' in profile  # and from there


@pytest.mark.parametrize(
    "path",
    [
        "/shared/nope/",
        "/shared/AAAAAAAAAAAAAAAAAAAAAA/",
        "/shared/AAAAAAAAAAAAAAAAAAAAAA/card.svg",
        "/shared/%FF<script>/",
        "/shared/" + "x" * 400 + "/",
    ],
)
def test_an_unknown_or_garbled_link_is_a_clear_404_page(path):
    answer = Client().get(path)
    assert answer.status_code == 404
    assert "No shared game has this link" in answer.content.decode()


def test_bad_posts_are_404_pages_or_coded_errors_never_a_500(today):
    assert Client().post("/shared/AAAAAAAAAAAAAAAAAAAAAA/race/").status_code == 404
    assert Client().post("/replay/ZZZZZZ/1/race/").status_code == 404
    assert share(Client(), "ZZZZZZ").status_code == 404
    ada, answer = todays_shared_win(today)
    attempt = Entry.objects.get(user__username="ada")
    assert share(guest(), attempt.race.room).json()["error"]["code"] == "not_a_player"
    bob = signed_up("bob")
    running = alone.daily_race(today, key_of(bob), "bob")
    assert share(bob, running.room).json()["error"]["code"] == "bad_field"  # not over
    replay = f"/replay/{attempt.race.room}/{attempt.pk}/"
    assert "Race this game" in ada.get(replay).content.decode()  # her own, her attempt over
    assert "Play on from here" not in ada.get(replay).content.decode()  # today's code
    assert ada.post(f"{replay}play-on/", {"step": "3"}).status_code == 404
    for date in ("2026-13-45", "garbage", days.today().isoformat()):
        assert Client().post(f"/daily/{date}/explorer/play-on/", {"line": ""}).status_code == 404


def solo_win(key):
    race = alone.solo_race(Deal.for_code(RULE_BOOK_DEAL), key, "Ada")
    return win_at_a_persons_pace(race, key)


def test_play_on_from_a_replay_step_starts_a_sandbox_at_that_position():
    client = guest()
    entry = solo_win(key_of(client))
    replay = f"/replay/{entry.race.room}/{entry.pk}/play-on/"
    for step in ("", "x", "-1", "49999", "1e3", "99999"):
        assert client.post(replay, {"step": step}).status_code == 404, step
    answer = client.post(replay, {"step": "10"})
    sandbox = Race.objects.get(room=answer.url.split("/")[2])
    mine = sandbox.entries.get()
    assert (sandbox.mode, sandbox.status, mine.seq, mine.moves) == ("solo", "running", 10, 10)
    want = games.rebuild(sandbox.deal, [])  # the deal as dealt
    played = games.replay(mine, sandbox.deal)
    for move in WIN[:10]:
        want.remove(tuple(move))
    assert played.heights() == want.heights() and mine.score == want.score
    actions.connect(sandbox.room, key_of(client), "test-socket")
    reply = actions.move(sandbox.room, key_of(client), 11, WIN[10]).reply
    assert reply[0]["type"] == "moved"  # the game goes on from there
    assert client.post(replay, {"step": "49"}).status_code == 404  # won there: nothing left


def test_play_on_from_an_explorer_node_of_a_past_day():
    yesterday = rule_book_layout(days.today() - datetime.timedelta(days=1))
    ranked_daily_win(yesterday, "ada")
    url = f"/daily/{yesterday.date.isoformat()}/explorer/play-on/"
    client = guest()
    for line in ("P1-P2", "nonsense", "." * 300):
        assert client.post(url, {"line": line}).status_code == 404, line
    path = ".".join("-".join(sorted(m, key=lambda s: (s[0], int(s[1:])))) for m in WIN[:3])
    answer = client.post(url, {"line": path})
    assert answer.status_code == 302, answer.content[:300]
    mine = Race.objects.get(room=answer.url.split("/")[2]).entries.get()
    assert (mine.moves, mine.status) == (3, Entry.PLAYING)
    assert len(move_log.rows(mine)) == 3


@pytest.mark.parametrize(
    ("lang", "result", "missing"),
    [
        ("fr", "Gagnée · score 520 · 48 coups · ", "Aucune partie partagée n’a ce lien."),
        ("ca", "Guanyada · puntuació 520 · 48 jugades · ", "Cap partida compartida no té"),
        ("ro", "Câștigată · scor 520 · 48 de mutări · ", "Niciun joc distribuit nu are"),
    ],
)
def test_the_shared_text_and_pages_speak_the_players_language(today, lang, result, missing):
    ada = signed_up("ada")
    attempt = alone.daily_race(today, key_of(ada), "ada")
    win_at_a_persons_pace(attempt, key_of(ada))
    answer = ada.post(
        f"/api/races/{attempt.room}/share/",
        "{}",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert answer.json()["text"].splitlines()[1].startswith(result), answer.json()["text"]
    path = TOKEN.search(answer.json()["url"]).group(0)
    assert result in guest().get(path, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert missing in Client().get("/shared/nope/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_a_guest_follows_a_guests_shared_game_after_its_own_attempt_on_the_guests_deal(today):
    first, second = guest(), guest()
    attempt = done_attempt(first, today)  # a guest's attempt: on the guests' deal
    assert attempt.deal_id == today.guest_deal_id
    path = TOKEN.search(share(first, attempt.room).json()["url"]).group(0)
    assert "Race this game" not in second.get(path).content.decode()
    done_attempt(second, today)
    page = html.unescape(second.get(path).content.decode())
    assert "Race this game" in page and "Guests' deal · " in page
    no_secret_in(page_parts(page), today)
    raced = second.post(f"{path}race/")
    race = Race.objects.get(room=raced.url.split("/")[2])
    assert (race.deal_id, race.daily_date, race.mode) == (today.guest_deal_id, today.date, "ghost")
    no_secret_in(page_parts(second.get(raced.url).content.decode()), today)


def test_a_race_shares_its_place_and_hides_a_hidden_deal_until_the_race_is_over():
    (_, ada), (_, bob) = new_session(), new_session()
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), ada, name="Ada", deal_hidden=True)
    actions.connect(race.room, ada, "socket-a")
    actions.join(race.room, bob, "Bob", "socket-b")
    actions.start(race.room, ada)
    Race.objects.filter(pk=race.pk).update(starts_at=timezone.now() - datetime.timedelta(seconds=1))
    actions.tick(race.room)
    actions.move(race.room, ada, 1, WIN[0])
    actions.resign(race.room, ada)
    mine = Entry.objects.select_related("race__deal").get(race=race, player_key=ada)
    run = shares.share(mine.race, ada)
    running = shares.facts(run.entry)
    assert running["label"] == "Hidden until the race is over" and not running["won"]
    assert running["rank"] == {"rank": 1, "of": 2} and running["cards_left"] == 102
    actions.resign(race.room, bob)
    over = shares.facts(Entry.objects.select_related("race__deal").get(pk=mine.pk))
    assert over["label"] == RULE_BOOK_DEAL  # the race over, its code is no secret
