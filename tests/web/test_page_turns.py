"""
Pages take turns (game/web/page_turns.py): no more HTTP requests in Django at once than
the turns allow, the next one let in as one ends, in the order they came; static files
and websockets never wait. Once the process stops (SIGTERM), those waiting and those
after are sent to the same address again (307) and those inside finish. The
application behind is a stand-in that holds each request until the test lets it go, so
who is inside at any moment is known, not timed. Inside Django, a page's middlewares
run in its one thread (`OneThread`).
"""

import asyncio

from asgiref import sync
from django.core.asgi import get_asgi_application
from prometheus_client import REGISTRY

from game.web.page_turns import PageTurns

TURNS = 2


class HeldApp:
    """An ASGI app that records who entered and holds each request until released."""

    def __init__(self):
        self.entered, self.release = [], {}

    async def __call__(self, scope, receive, send):
        self.entered.append(scope["path"])
        self.release[scope["path"]] = asyncio.Event()
        await self.release[scope["path"]].wait()


def sent_elsewhere():
    """This process's count of requests sent elsewhere, as /metrics shows it."""
    return REGISTRY.get_sample_value("halfmoon_pages_sent_elsewhere_total") or 0.0


async def settled():
    for _ in range(20):  # a few turns of the loop: every task runs as far as it can
        await asyncio.sleep(0)


def request(app, path, kind="http", send=None, query=b""):
    scope = {"type": kind, "path": path, "query_string": query}
    return asyncio.ensure_future(app(scope, None, send))


class Answer:
    """An ASGI `send` keeping what the application answered."""

    def __init__(self):
        self.status, self.headers, self.body = None, {}, b""

    async def __call__(self, message):
        if message["type"] == "http.response.start":
            self.status, self.headers = message["status"], dict(message["headers"])
        else:
            self.body += message["body"]


async def test_requests_beyond_the_turns_wait_and_enter_in_order_as_others_end():
    inner = HeldApp()
    turns = PageTurns(inner, at_once=TURNS)
    tasks = [request(turns, f"/page/{n}/") for n in range(4)]
    await settled()
    assert inner.entered == ["/page/0/", "/page/1/"]
    inner.release["/page/1/"].set()
    await settled()
    assert inner.entered == ["/page/0/", "/page/1/", "/page/2/"]
    for path in ("/page/0/", "/page/2/"):
        inner.release[path].set()
    await settled()
    assert inner.entered[-1] == "/page/3/"
    inner.release["/page/3/"].set()
    await asyncio.gather(*tasks)


async def test_static_files_and_websockets_never_wait_for_a_turn():
    inner = HeldApp()
    turns = PageTurns(inner, at_once=1)
    held = [request(turns, "/daily/"), request(turns, "/race/ABC/")]
    passing = [request(turns, "/static/app.css"), request(turns, "/ws/race/ABC/", "websocket")]
    await settled()
    assert inner.entered == ["/daily/", "/static/app.css", "/ws/race/ABC/"]
    for event in list(inner.release.values()):
        event.set()
    await settled()
    for event in list(inner.release.values()):
        event.set()
    await asyncio.gather(*held, *passing)


async def test_once_stopped_the_waiting_and_the_later_go_elsewhere_and_those_inside_finish():
    inner = HeldApp()
    turns = PageTurns(inner, at_once=1)
    inside = request(turns, "/daily/")
    waiting, answers = [], [Answer() for _ in range(3)]
    for n, answer in enumerate(answers[:2]):
        waiting.append(request(turns, "/daily/", send=answer, query=f"n={n}".encode()))
    await settled()
    sent_before = sent_elsewhere()
    turns.stop()
    later = request(turns, "/événements/", send=answers[2])
    await asyncio.gather(*waiting, later)
    assert sent_elsewhere() - sent_before == 3
    assert [a.status for a in answers] == [307, 307, 307]
    assert [a.headers[b"location"] for a in answers] == [
        b"/daily/?n=0",
        b"/daily/?n=1",
        b"/%C3%A9v%C3%A9nements/",
    ]
    assert {a.headers[b"connection"] for a in answers} == {b"close"}
    assert inner.entered == ["/daily/"] and not inside.done()  # the one inside goes on
    inner.release["/daily/"].set()
    await inside


async def test_a_request_that_leaves_while_waiting_takes_no_turn_with_it():
    inner = HeldApp()
    turns = PageTurns(inner, at_once=1)
    first, leaving, last = (request(turns, f"/page/{n}/") for n in range(3))
    await settled()
    leaving.cancel()
    inner.release["/page/0/"].set()
    await settled()
    assert inner.entered == ["/page/0/", "/page/2/"]
    inner.release["/page/2/"].set()
    await asyncio.gather(first, last)
    assert turns.taken == 0 and not turns.waiting


async def test_a_page_crosses_between_the_loop_and_its_thread_at_most_five_times(monkeypatch):
    """The chain, the view, the request's two signals and its end: not a crossing for
    each middleware's request and response (17 before `OneThread`)."""
    crossings = []
    into_a_thread = sync.SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        crossings.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await into_a_thread(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    sent, asked = [], asyncio.Event()

    async def receive():
        if not asked.is_set():
            asked.set()
            return {"type": "http.request", "body": b""}
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/rules/", "query_string": b""}
    scope.update(headers=[(b"host", b"testserver")], client=("127.0.0.1", 1), root_path="")
    await get_asgi_application()(scope, receive, send)
    assert sent[0]["status"] == 200
    assert len(crossings) <= 5, crossings
