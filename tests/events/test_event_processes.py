"""
An event's standings on two real daphne processes: one process computes each tick
(the lease), and the same frame reaches every socket of the event on both, players
and a spectator, moving as a player on one of them plays.
"""

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from websockets.asyncio.client import connect

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Deal, Event, EventDeal
from game.testing.live import Browser, Player, database_url, environment, running
from tests.support.server import WIN

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def servers(redis_url, tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_EVENT_TICK_S="0.5",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as servers:
        yield servers


def an_event():
    deal = Deal.for_code(RULE_BOOK_DEAL)
    Deal.objects.filter(pk=deal.pk).update(verdict="winnable")
    started = timezone.now() - timedelta(minutes=1)
    event = Event.objects.create(title="Two processes", starts_at=started, minutes=30)
    EventDeal.objects.create(event=event, index=0, deal=deal)
    return event


def joined(server, event_id, name):
    """A browser that joined the event on `server`: (browser, its game's room)."""
    browser = Browser()
    browser.get(f"{server.url}/events/")
    browser.get(f"{server.url}/events/{event_id}/")
    status, url = browser.submit(f"{server.url}/events/{event_id}/", {"name": name})
    assert status == 200 and "/race/" in url, (status, url)
    return browser, url.rstrip("/").rsplit("/", 1)[-1]


class Watcher:
    """An event socket: the standings frames it has seen."""

    def __init__(self, server, event_id, browser=None):
        self.uri = f"ws://127.0.0.1:{server.port}/ws/event/{event_id}/"
        self.server, self.browser = server, browser

    async def open(self):
        cookie = {"Cookie": self.browser.cookie_header()} if self.browser else {}
        self.ws = await connect(
            self.uri, origin=self.server.url, additional_headers=cookie, open_timeout=10
        )

    async def until(self, kind, check, timeout=10):
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await self.ws.recv())
                if frame["type"] == kind and check(frame):
                    return frame


def leader_points(points):
    return lambda frame: bool(frame["top"]) and frame["top"][0]["points"] == points


async def test_one_tick_reaches_every_socket_of_the_event_on_both_processes(servers):
    one, two = servers
    event = await database_sync_to_async(an_event)()
    ada, ada_room = await asyncio.to_thread(joined, one, event.pk, "Ada")
    bob, _ = await asyncio.to_thread(joined, two, event.pk, "Bob")
    watchers = [Watcher(one, event.pk, ada), Watcher(two, event.pk, bob), Watcher(two, event.pk)]
    for watcher in watchers:
        await watcher.open()
    for watcher in watchers:
        await watcher.until("standings", lambda frame: frame["players"] == 2)
    table = Player(ada, one, ada_room)
    await table.open()
    await table.send("move", seq=1, slots=WIN[0])
    score = (await table.expect("moved"))["score"]
    seen = [await w.until("standings", leader_points(score)) for w in watchers]
    assert all(frame["top"][0]["name"] == "Ada" for frame in seen)
    # One process computed it: the next tick's frame is the same on both processes.
    after = [await w.until("standings", lambda f, at=seen[0]["at"]: f["at"] > at) for w in watchers]
    assert len({frame["at"] for frame in after}) == 1, after
    mine = await watchers[1].until("standings_you", lambda frame: True)
    assert mine["rank"] == 2 and [line["name"] for line in mine["near"]] == ["Ada", "Bob"]
    await table.close()
    for watcher in watchers:
        await watcher.ws.close()
