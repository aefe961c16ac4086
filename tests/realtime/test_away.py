"""An opponent who closes their page reads "away" at once, not "playing" for the
grace period they have to come back; a spectator arriving meanwhile sees it from
the race's state, and the opponent who comes back reads "playing" again."""

import json

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL
from tests.race.test_race import create_race, opponent

pytestmark = pytest.mark.e2e


def left_frames(page):
    """The `player_left` frames the page's race socket receives, as they come."""
    frames = []

    def watch(socket):
        socket.on("framereceived", lambda payload: _keep(frames, payload))

    page.on("websocket", watch)
    return frames


def _keep(frames, payload):
    frame = json.loads(payload) if isinstance(payload, str) else {}
    if frame.get("type") == "player_left":
        frames.append(frame)


def test_an_opponent_whose_socket_closed_reads_away_at_once(new_page):
    host = new_page()
    link = create_race(host, "Ada", RULE_BOOK_DEAL)
    guest = new_page(locale="ro-RO")
    seen = left_frames(guest)
    guest.goto(link)
    guest.locator("#join-name").fill("Béa")
    guest.locator("#join button").click()
    expect(host.locator("#lobby-players li")).to_have_count(2)
    host.locator("#start").click()
    for page in (host, guest):
        expect(page.locator('body[data-phase="running"]')).to_be_attached(timeout=15_000)
    ada = opponent(guest, "Ada").locator(".player-status")
    expect(ada).to_have_text("în joc")

    context = host.context
    host.close()  # the page goes: its socket closes
    expect(ada).to_have_text("absent")
    assert len(seen) == 1  # on the race's word (`player_left`), not the page's guess

    spectator = new_page(locale="fr-FR")
    spectator.goto(link)
    expect(opponent(spectator, "Ada").locator(".player-status")).to_have_text("absent")

    back = context.new_page()
    back.goto(link)
    expect(ada).to_have_text("în joc")
    expect(opponent(spectator, "Ada").locator(".player-status")).to_have_text("en jeu")
