"""
Restarting a solo game: a new game on the same deal from the start, reached by a
CSRF-protected POST counted like any race it creates; the old game ends given up and
stays in the player's history. A race, a daily attempt and a ghost race are played
once: refused.
"""

import pytest

from game.base.errors import GameError
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import Deal, Entry, Race
from game.players import identity, profiles
from game.race import actions
from tests.support.server import WIN, post, win_at_a_persons_pace

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def playing(browser, body=None):
    """This browser's game (a solo game on the rule book's deal), started, one move in."""
    body = body or {"deal": RULE_BOOK_DEAL, "solo": True}
    room = post(browser, "/api/races/", body).json()["room"]
    key = browser.session[identity.PLAYER_KEY]
    actions.connect(room, key, "test-socket")
    actions.move(room, key, 1, WIN[0])
    return Race.objects.get(room=room), key


def restart(browser, room):
    return post(browser, f"/api/races/{room}/restart/", {})


def test_a_restart_is_a_new_game_on_the_same_deal_and_the_old_one_stays_in_the_history(browser):
    old, key = playing(browser)
    response = restart(browser, old.room)
    assert response.status_code == 201
    new = Race.objects.get(room=response.json()["room"])
    url = f"/play/{RULE_BOOK_DEAL}/"  # the code's address opens the new game
    assert response.json() == {"room": new.room, "url": url, "ws": new.ws_path}
    assert f'data-room="{new.room}"' in browser.get(response.json()["url"]).content.decode()
    assert (new.mode, new.deal, new.status) == (Race.SOLO, old.deal, Race.LOBBY)
    state = actions.connect(new.room, key, "test-socket").reply[0]
    assert (state["board"]["moves"], state["board"]["seq"], state["board"]["score"]) == (0, 0, 0)
    old.refresh_from_db()
    assert (old.status, old.rematch) == (Race.FINISHED, new)
    assert Entry.objects.get(race=old).status == Entry.RESIGNED
    history = profiles.history(Entry.objects.filter(player_key=key))
    assert [entry.race for entry in history] == [old]
    assert alone.solo_race(old.deal, key, "Ada") == new  # the code opens the new game


def test_the_old_games_tabs_are_sent_to_the_new_one():
    key = "k" * 32
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), key, mode=Race.SOLO, name="Ada")
    actions.connect(race.room, key, "test-socket")
    out = actions.restart(race.room, key)
    kinds = [(frame["type"], frame.get("kind")) for frame in out.broadcast]
    assert kinds == [("progress", "resign"), ("finished", None), ("rematch", None)]
    [reply] = out.reply
    assert reply["room"] == out.broadcast[-1]["room"] != race.room


def test_a_double_tap_restarts_once(browser):
    old, _ = playing(browser)
    first, second = restart(browser, old.room).json(), restart(browser, old.room).json()
    assert first == second
    assert Race.objects.filter(mode=Race.SOLO).count() == 2


def test_a_won_game_restarts_too_and_stays_won():
    key = "w" * 32
    old = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), key, mode=Race.SOLO, name="Ada")
    assert win_at_a_persons_pace(old, key).status == Entry.WON
    room = actions.restart(old.room, key).reply[0]["room"]
    assert Race.objects.get(room=room).deal == old.deal and room != old.room
    assert Entry.objects.get(race=old).status == Entry.WON


@pytest.mark.parametrize(
    "body",
    [{"deal": RULE_BOOK_DEAL}, {"deal": "daily", "solo": True}],
    ids=["race", "daily attempt"],
)
def test_a_race_or_the_daily_attempt_is_not_restarted(browser, body):
    race, _ = playing(browser, {**body, "name": "Ada"})
    if race.mode == Race.RACE:  # started by its host; a daily attempt starts on connect
        actions.start(race.room, race.host_key)
    response = restart(browser, race.room)
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_solo"
    race.refresh_from_db()
    assert race.rematch is None and race.status != Race.FINISHED
    assert Race.objects.count() == 1


def test_a_ghost_race_is_not_restarted():
    key = "g" * 32
    race = actions.create_race(Deal.for_code(RULE_BOOK_DEAL), key, mode=Race.GHOST, name="Ada")
    actions.connect(race.room, key, "test-socket")
    with pytest.raises(GameError) as refused:
        actions.restart(race.room, key)
    assert refused.value.code == "not_solo"
    assert Entry.objects.get().status == Entry.PLAYING


def test_only_the_player_restarts_their_game(browser, client):
    old, _ = playing(browser)
    client.get("/")
    other = client.post(f"/api/races/{old.room}/restart/", content_type="application/json")
    assert other.status_code == 409 and other.json()["error"]["code"] == "not_a_player"
    assert Entry.objects.get(race=old).status == Entry.PLAYING


def test_a_restart_needs_the_csrf_token_and_counts_as_creating_a_race(browser, settings):
    settings.HALFMOON_CREATE_LIMIT = "1/3600"
    old, _ = playing(browser)  # the one game allowed
    response = browser.post(f"/api/races/{old.room}/restart/", content_type="application/json")
    assert response.status_code == 403
    response = restart(browser, old.room)
    assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"
    assert Entry.objects.get(race=old).status == Entry.PLAYING
