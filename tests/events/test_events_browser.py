"""
An event end to end (issue #19's "done when"): six players, three of them in browser
contexts and three from a scripted client, join a running event late; a browser wins
the first deal and gives the second up, the next deal coming by itself each time; the
standings move on every screen (the other players' side panels, a spectator's page);
once the event is over its page shows the final standings with replays, and the deals'
codes, hidden until then. A script's win (flagged by the result checks) shows in the
live standings marked "held for review", with no rank, below the others.
"""

import asyncio
import json
import re
import threading
import time

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.testing import live
from tests.support.table import card, give_up, play_move

pytestmark = pytest.mark.e2e

SECOND = "HM1-N-AAAAAAD"
LEFT_S = 150
"""A test's event ends this long after the test makes it, unless the test ends it."""
CREATE = """
import json
from datetime import timedelta
from django.utils import timezone
from game.models import Deal, Event, EventDeal
event = Event.objects.create(
    title="Moonrise cup", minutes={minutes},
    starts_at=timezone.now() - timedelta(seconds={minutes} * 60 - {left}))
for index, code in enumerate({codes!r}):
    deal = Deal.for_code(code)
    Deal.objects.filter(pk=deal.pk).update(verdict="winnable")
    EventDeal.objects.create(event=event, index=index, deal=deal)
print(json.dumps(event.pk))
"""
END = """
from datetime import timedelta
from django.utils import timezone
from game.models import Event, Race
event = Event.objects.get(pk={event_id})
now = timezone.now()
Event.objects.filter(pk=event.pk).update(starts_at=now - timedelta(minutes=event.minutes))
Race.objects.filter(event_game__entry__event=event).update(closes_at=now)
"""
END_OTHERS = """
from datetime import timedelta
from django.utils import timezone
from game.models import Event, Race
now = timezone.now()
for event in Event.objects.exclude(pk={event_id}):
    if event.ends_at > now:
        begun = now - timedelta(minutes=event.minutes)
        Event.objects.filter(pk=event.pk).update(starts_at=begun)
        Race.objects.filter(event_game__entry__event=event).update(closes_at=now)
"""


@pytest.fixture(scope="module", autouse=True)
def events_end_with_their_module(server):
    """Every event a module made ended after its last test: the browser tests share one
    server, and a running event on the rule book's deal hides that code everywhere
    (a solo game's label included) until it is over. A module that makes events
    imports this fixture."""
    yield
    end_other_events(server, 0)


def make_event(server, left_s=LEFT_S, minutes=5):
    """An event of `minutes` ending in `left_s` (negative: over; more than its
    length: upcoming); its id."""
    script = CREATE.format(left=left_s, minutes=minutes, codes=[RULE_BOOK_DEAL, SECOND])
    return json.loads(live.manage(server.env, "shell", "-c", script).strip().splitlines()[-1])


def end_event(server, event_id):
    """The event's clock run out now, as the time passing would: its end and the end of
    every game in it (a game in an event runs out with it)."""
    live.manage(server.env, "shell", "-c", END.format(event_id=event_id))


def end_other_events(server, event_id):
    """Every other event the session's earlier tests left running or to come ended now: an event's
    codes stay hidden while another game plays its deals (tests/events/
    test_event_secrecy.py), and the browser tests' events share the rule book's deal."""
    live.manage(server.env, "shell", "-c", END_OTHERS.format(event_id=event_id))


def scripted_players(server, event_id, names, moves=1):
    """Players from a script (no browser): each joins over HTTP and makes `moves` moves
    of the rule book's win on its table's socket, as fast as the server acknowledges
    them, in a thread of its own (Playwright holds this one's loop)."""
    done = []

    def one(name):
        browser = live.Browser()
        browser.get(f"{server.url}/events/{event_id}/")
        status, url = browser.submit(f"{server.url}/events/{event_id}/", {"name": name})
        assert status == 200 and "/race/" in url, (status, url)
        port = int(server.url.rsplit(":", 1)[1])
        player = live.Player(browser, type("S", (), {"port": port, "url": server.url}), "")
        player.room = url.rstrip("/").rsplit("/", 1)[-1]

        async def move():
            await player.open()
            for seq, slots in enumerate(RULE_BOOK_WIN[:moves], start=1):
                await player.send("move", seq=seq, slots=list(slots))
                await player.expect("moved")
            await player.close()

        asyncio.run(move())
        done.append(name)

    threads = [threading.Thread(target=one, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(done) == sorted(names)


def join(page, event_id, name):
    page.goto(f"/events/{event_id}/")
    page.locator("#event-name").fill(name)
    page.locator(".event-join button").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(card(page, "P1")).not_to_have_attribute("data-card", "")


def rows(page):
    return page.locator("[data-event-rows] tr")


def leader(page):
    return rows(page).first


def test_an_event_from_late_joins_to_final_standings_replays_and_codes(new_page, server):
    # Ended by the test once all have played: on a loaded machine, the joins and moves
    # below can take minutes, and a game in the event runs out when the event ends.
    event_id = make_event(server, left_s=30 * 60, minutes=40)
    scripted_players(server, event_id, ["Sam", "Sue", "Sid"])
    spectator = new_page(width=390, height=844)  # a phone
    spectator.goto(f"/events/{event_id}/")
    expect(spectator.locator("[data-event-rows] tr")).to_have_count(3)
    ada, bob, cid = new_page(), new_page(width=390, height=844), new_page(locale="fr-FR")
    for page, name in ((ada, "Ada"), (bob, "Bob"), (cid, "Cid")):
        join(page, event_id, name)
    for page in (bob, cid, spectator):
        expect(page.locator("[data-event-rows] tr")).to_have_count(6)
    for page in (ada, bob, spectator):  # the rule book's code is also the pages' example
        assert SECOND not in page.content()
        assert RULE_BOOK_DEAL not in page.locator("main").inner_text()

    first_room = ada.url
    for number, move in enumerate(RULE_BOOK_WIN, start=1):
        play_move(ada, move, number)
    expect(ada.locator("#won")).to_be_visible()
    won_at = time.monotonic()
    moved = []
    for page in (bob, cid, spectator):
        expect(leader(page)).to_contain_text("Ada")
        moved.append(time.monotonic() - won_at)
    print(f"standings showed the win {', '.join(f'{s:.1f}' for s in moved)} s after it")
    expect(leader(bob)).to_contain_text(re.compile(r"Ada\s*\d{3}"))

    expect(ada).not_to_have_url(first_room)  # the next deal came by itself
    expect(ada.locator('body[data-phase="running"]')).to_be_attached()
    give_up(ada)
    expect(ada.locator("main.event-page")).to_be_visible()  # no deal left: the event's page
    give_up(bob)
    expect(bob.locator('body[data-phase="running"]')).to_be_attached()

    assert SECOND not in ada.locator("main").inner_text()
    end_other_events(server, event_id)
    end_event(server, event_id)
    over = ada.get_by_role("heading", name="Final standings")  # the page reloads at the end
    expect(over).to_be_visible()
    final = ada.locator("table.event-board tbody tr")
    expect(final.first).to_contain_text("Ada")
    expect(ada.locator(".event-deals")).to_contain_text(RULE_BOOK_DEAL)
    expect(ada.locator(".event-deals")).to_contain_text(SECOND)
    expect(final).to_have_count(6)
    ada.locator(".replay-link").first.click()
    expect(ada).to_have_url(re.compile(r"/replay/"))
    expect(ada.locator("main")).to_contain_text(RULE_BOOK_DEAL)


def test_a_script_s_win_is_held_for_review_in_the_live_standings_unranked(new_page, server):
    event_id = make_event(server, left_s=30 * 60, minutes=40)
    page = new_page()
    page.goto(f"/events/{event_id}/")
    scripted_players(server, event_id, ["Sam"])  # one pair: 10 points
    scripted_players(server, event_id, ["Bot"], moves=len(RULE_BOOK_WIN))  # flagged
    bot = rows(page).filter(has_text="Bot")
    expect(bot.locator("[data-held]")).to_have_text("held for review")  # pushed by the socket
    expect(bot.locator("td").first).to_have_text("–")  # no rank
    expect(leader(page)).to_contain_text("Sam")  # 10 points ahead of a held win's 600
    expect(rows(page).last).to_contain_text("Bot")
    page.reload()  # the page's own rendering says the same
    expect(rows(page).filter(has_text="Bot").locator("[data-held]")).to_be_visible()
    expect(leader(page)).to_contain_text("Sam")
