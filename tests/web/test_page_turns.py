"""
Pages take turns (game/web/page_turns.py): no more HTTP requests in Django at once than
the turns allow, the next one let in as one ends, in the order they came; static files
and websockets never wait. The application behind is a stand-in that holds each request
until the test lets it go, so who is inside at any moment is known, not timed.
"""

import asyncio

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


async def settled():
    for _ in range(20):  # a few turns of the loop: every task runs as far as it can
        await asyncio.sleep(0)


def request(app, path, kind="http"):
    return asyncio.ensure_future(app({"type": kind, "path": path}, None, None))


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
