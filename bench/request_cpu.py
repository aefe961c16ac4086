"""
A request's CPU in a server process, each way beside the one it replaced, in one
process, alternating:

- a static file through the front (game/web/assets.py `StaticFront`, what a daphne
  runs) against Django's ASGI handler answering it through the same middlewares;
- a page (/rules/, no database) through Django with `OneThread` last in the middleware
  (game/web/page_turns.py: every middleware in the request's thread) against the same
  chain without it (the middlewares below `Door` in async mode, a hop each way).

The files are every hashed module and stylesheet of the client (what a cold game page
loads), asked as a browser asks (brotli or gzip accepted). Each way runs `REPEAT`
passes a round, `ROUNDS` rounds; the figure is this process's CPU (its threads
included: Django runs the middlewares and the view in threads of its own) a request.
daphne's own work (HTTP parsing, writing) is the same for both ways and not in it.
Written to bench/results/request_cpu.json; the figures: docs/performance.md.

    python bench/request_cpu.py
"""

import asyncio
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import production_settings  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "request_cpu.json"
REPEAT = 20
ROUNDS = 3
PAGE = "/rules/"
PAGES = 10
"""The page's requests in a pass (a pass of the files is some 50)."""
ONE_THREAD = "game.web.page_turns.OneThread"


def ways():
    """{(what, way): (ASGI application, paths)} with a server's settings, its static
    files collected as the image collects them."""
    from game.testing import live

    production_settings()
    os.environ["STATIC_ROOT"] = str(live.collected_static())
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    from django.conf import settings
    from django.core.asgi import get_asgi_application
    from django.test import override_settings

    from game.web.assets import StaticFront

    django = get_asgi_application()
    without = [name for name in settings.MIDDLEWARE if name != ONE_THREAD]
    with override_settings(MIDDLEWARE=without):  # read once, when the handler is made
        async_mode = get_asgi_application()
    files = client_files()
    return {
        ("static file", "front"): (StaticFront(django), files),
        ("static file", "Django"): (django, files),
        ("page", "OneThread"): (django, [PAGE] * PAGES),
        ("page", "async mode"): (async_mode, [PAGE] * PAGES),
    }


def client_files():
    """The hashed names of the client's modules and stylesheets."""
    manifest = json.loads((Path(os.environ["STATIC_ROOT"]) / "staticfiles.json").read_text())
    paths = manifest["paths"]
    return [f"/static/{name}" for key, name in paths.items() if key.startswith(("js/", "css/"))]


async def ask(app, path):
    """The status of `app`'s answer to a browser's GET of `path`."""
    sent, asked = [], asyncio.Event()

    async def receive():
        if not asked.is_set():
            asked.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)

    headers = [(b"host", b"localhost"), (b"accept-encoding", b"gzip, deflate, br")]
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode()}
    scope.update(query_string=b"", root_path="", headers=headers, scheme="http")
    scope.update(client=("127.0.0.1", 1), server=("localhost", 80), http_version="1.1")
    await app(scope, receive, send)
    return sent[0]["status"]


async def cpu_per_request(app, paths):
    """This process's CPU-milliseconds a request, over REPEAT passes of `paths`."""
    start = time.process_time()
    for _ in range(REPEAT):
        for path in paths:
            assert await ask(app, path) == 200, path
    return 1000 * (time.process_time() - start) / (REPEAT * len(paths))


async def main():
    measured = ways()
    found = {key: [] for key in measured}
    for app, paths in measured.values():  # first answers: templates compiled, files indexed
        for path in set(paths):
            await ask(app, path)
    for _ in range(ROUNDS):
        for key, (app, paths) in measured.items():
            found[key].append(round(await cpu_per_request(app, paths), 3))
    for (what, way), figures in found.items():
        print(f"{what:12} {way:11} CPU ms a request, each round: {figures}")
    best = {key: min(figures) for key, figures in found.items()}
    for what, new, old in (("static file", "front", "Django"), ("page", "OneThread", "async mode")):
        print(f"{what}: {new} {best[what, new] / best[what, old]:.0%} of {old}'s CPU")
    report = {f"{what}, {way}": figures for (what, way), figures in found.items()}
    RESULTS.write_text(json.dumps({"cpu_ms_a_request": report, "repeat": REPEAT}, indent=2) + "\n")


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")  # Django's note on streaming a file from a thread
    asyncio.run(main())
