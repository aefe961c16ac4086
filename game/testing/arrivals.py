"""
Newcomers at today's daily deal, through the entrance, as browsers arrive at the reset:
the rush of issue #34, for bench/rush.py and tests/realtime/test_rush.py alike.

Each newcomer is a browser whose static files are cached: the day's page (GET
/daily/), its "Play" (a POST naming the guest, redirected to the race's page), the
race's socket and its `state`, then the deal's first move until acknowledged. A socket
closed under it (a replica's rolling restart closes with 1012) is opened again and an
unanswered move sent again, as the client does; after its move the newcomer stays on
the table, reconnecting the same way, until the rush is over. Everything it met on the
way is kept: its times from the page request, HTTP errors, close codes, refusals.

The pages are fetched in threads (urllib, game/testing/live.py's Browser), a pool large
enough that a second of arrivals never waits for a thread.
"""

import asyncio
import collections
import contextlib
import json
import random
import time
import urllib.error
from concurrent.futures import ThreadPoolExecutor

from websockets.exceptions import ConnectionClosed, WebSocketException

from game.testing.live import Browser, Player

ANSWER_S = 30
"""A move unanswered this long is counted unanswered (a bound for a hung server)."""
ANSWERS = ("moved", "rejected")
DAILY = "/daily/"
PAGE_THREADS = 256
OPEN_TRIES = 8
PAGE_TIMEOUT_S = 30
"""How long a newcomer waits for a page: nginx's own bound (`proxy_read_timeout`), as a
browser would wait for it."""
FIRST_MOVE = """
SELECT deal.winning_line FROM game_dailydeal day JOIN game_deal deal
ON deal.id = day.guest_deal_id WHERE day.date = (now() AT TIME ZONE 'UTC')::date
"""


def todays_first_move(front, database_url):
    """The first move of the winning line of today's guests' deal: what a newcomer
    plays first. A first guest plays today's deal through `front` before it is read,
    so that the day and its guests' deal are picked (once a day, on the day's first
    attempt), as they are long before the rush on a running site."""
    import psycopg

    opener = Browser()
    opener.get(f"{front.url}/daily/")
    opener.submit(f"{front.url}/daily/", {"name": "Early bird"})
    with psycopg.connect(database_url) as conn:
        (line,) = conn.execute(FIRST_MOVE).fetchone()
    return list(line[0])


class Newcomer:
    """One browser arriving through `front` (an Entrance) at the page `door` (today's
    deal, or an event's page), whose Play (a form naming the guest) leads to a table."""

    def __init__(self, front, name, first_move, pages, door=DAILY):
        self.front, self.name, self.first_move, self.pages = front, name, first_move, pages
        self.door = door
        self.browser, self.player, self.entry = Browser(PAGE_TIMEOUT_S), None, None
        self.began, self.times = None, {}
        self.http_errors, self.closes, self.refused = [], [], []
        self.reconnects, self.retries = 0, []

    def since(self):
        return time.perf_counter() - self.began

    async def arrive(self, arrived):
        """Page, Play, socket, state, first move: each step's time in `times`
        (seconds after the page request) as it is reached; `arrived` set at the end,
        whatever happened."""
        try:
            await self._arrive()
        finally:
            arrived.set()

    async def _arrive(self):
        self.began = time.perf_counter()
        try:
            room = await self.play()
            if room is None:
                return
            state = await self.connect(room)
            self.times["state"] = self.since()
            self.entry = state["you"]["player"]
            if await self.move():
                self.times["ack"] = self.since()
        except urllib.error.HTTPError as failed:
            self.http_errors.append(f"{failed.code} {failed.url}")
        except (OSError, TimeoutError, WebSocketException) as failed:
            self.http_errors.append(type(failed).__name__)

    async def play(self):
        """The day's page, then its Play: the race's room, or None (an HTTP error kept)."""
        url = f"{self.front.url}{self.door}"
        await self._in_thread(self.browser.get, url)
        self.times["page"] = self.since()
        status, where = await self._in_thread(self.browser.submit, url, {"name": self.name})
        self.times["play"] = self.since()
        if status != 200 or "/race/" not in where:
            self.http_errors.append(f"{status} POST {self.door} -> {where}")
            return None
        return where.rstrip("/").rsplit("/", 1)[-1]

    async def _in_thread(self, function, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pages, function, *args)

    async def connect(self, room):
        """The race's socket open and its `state`, tried again as the client does after
        a close (kept in `closes`) or a failure to open (kept in `retries`); after
        OPEN_TRIES, an error."""
        for attempt in range(OPEN_TRIES):
            player = Player(self.browser, self.front, room)
            try:
                state = await player.open()
            except ConnectionClosed as closed:  # a draining replica's 1012, at once
                self.closes.append(closed.rcvd.code if closed.rcvd else None)
            except (OSError, TimeoutError, WebSocketException) as failed:
                self.retries.append(f"socket open: {type(failed).__name__}")
            else:
                self.player = player
                return state
            await asyncio.sleep(min(5, 0.25 * 2**attempt))
        raise TimeoutError(f"no socket for {room} in {OPEN_TRIES} tries")

    async def move(self):
        """The first move sent, and again after each drop, until it is answered: True
        once acknowledged."""
        frame = json.dumps({"type": "move", "seq": 1, "slots": self.first_move})
        while True:
            try:
                await self.player.ws.send(frame)
                answer = await self.answer()
            except ConnectionClosed:
                await self.reconnect()
                continue
            if answer is None or answer["type"] != "moved":
                self.refused.append("unanswered" if answer is None else answer_code(answer))
                return False
            return True

    async def answer(self):
        """The first move's `moved` or `rejected`, or an `error`; None after ANSWER_S."""
        try:
            async with asyncio.timeout(ANSWER_S):
                while True:
                    frame = json.loads(await self.player.ws.recv())
                    if frame["type"] == "error" or frame["type"] in ANSWERS and frame["seq"] == 1:
                        return frame
        except TimeoutError:
            return None

    async def reconnect(self):
        """After a drop: its close code kept, a 1012 within a second's jitter, as the
        client does, else after half a second."""
        code = self.player.ws.close_code
        self.closes.append(code)
        await asyncio.sleep(random.random() if code == 1012 else 0.5)
        await self.connect(self.player.room)
        self.reconnects += 1

    async def stay(self, over):
        """On the table until `over` is set, reconnecting after each drop."""
        while self.player is not None:
            reading = asyncio.ensure_future(self._read_all())
            ending = asyncio.ensure_future(over.wait())
            await asyncio.wait({reading, ending}, return_when=asyncio.FIRST_COMPLETED)
            for task in (reading, ending):
                task.cancel()
            if over.is_set():
                await self.player.ws.close()
                return
            try:
                await self.reconnect()
            except (OSError, TimeoutError, WebSocketException) as failed:
                self.http_errors.append(f"socket {type(failed).__name__}")
                return

    async def _read_all(self):
        with contextlib.suppress(ConnectionClosed):
            async for _ in self.player.ws:
                pass


def answer_code(frame):
    return f"{frame['type']} {frame.get('code')}"


def arrival_times(count, seconds):
    """`count` arrivals in `seconds` of a Poisson process: given their number, its
    arrival times are that many uniform draws, in order."""
    return sorted(random.uniform(0, seconds) for _ in range(count))


async def rush(front, count, seconds, first_move, over, door=DAILY, seated=None):
    """`count` newcomers arriving at `door` over `seconds` at a Poisson rate, each then
    on the table until `over` is set (`seated(newcomer)`, when given, awaited once it has
    its state): (the newcomers, once every one has arrived and moved or failed to; their
    stays, still running until `over`)."""
    pages = ThreadPoolExecutor(PAGE_THREADS, thread_name_prefix="newcomer")
    start = time.perf_counter()
    newcomers = [Newcomer(front, f"Newcomer {n}", first_move, pages, door) for n in range(count)]
    arrived = [asyncio.Event() for _ in newcomers]

    async def one(newcomer, at, done):
        await asyncio.sleep(max(0.0, start + at - time.perf_counter()))
        await newcomer.arrive(done)
        if seated is not None and "state" in newcomer.times:
            try:
                await seated(newcomer)
            except (OSError, TimeoutError, WebSocketException) as failed:
                newcomer.http_errors.append(f"beside the table: {type(failed).__name__}")
        await newcomer.stay(over)

    times = arrival_times(count, seconds)
    stays = [
        asyncio.ensure_future(one(*each)) for each in zip(newcomers, times, arrived, strict=True)
    ]
    for done in arrived:
        await done.wait()
    pages.shutdown(wait=False)
    return newcomers, stays


def tally(newcomers):
    """What the newcomers met, summed: how many got no `state`, no ack, and every
    HTTP error, close code, refusal and reconnect."""
    return {
        "arrived": len(newcomers),
        "no_state": sum("state" not in n.times for n in newcomers),
        "no_ack": sum("ack" not in n.times for n in newcomers),
        "http_errors": dict(collections.Counter(e for n in newcomers for e in n.http_errors)),
        "closes": dict(collections.Counter(str(c) for n in newcomers for c in n.closes)),
        "refused": dict(collections.Counter(r for n in newcomers for r in n.refused)),
        "reconnects": sum(n.reconnects for n in newcomers),
        "socket_retries": dict(collections.Counter(r for n in newcomers for r in n.retries)),
    }


def acknowledged(newcomers):
    """{(entry id, seq)} of every move acknowledged to a newcomer."""
    return {(n.entry, 1) for n in newcomers if "ack" in n.times}
