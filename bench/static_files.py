"""
A static file's CPU in a server process: the front (game/web/assets.py `StaticFront`,
what a daphne runs) against Django's ASGI handler answering it through the same
middlewares (what every daphne ran before), in one process, alternating.

Each way is asked for every hashed module and stylesheet of the client (what a cold
game page loads), as a browser asks (brotli or gzip accepted), `REPEAT` times a round,
`ROUNDS` rounds; the figure is this process's CPU (its threads included: Django's
handler runs the middlewares and reads the file in threads of its own) per file.
Written to bench/results/static_files.json; the figures: docs/performance.md.

    python bench/static_files.py
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

RESULTS = Path(__file__).parent / "results" / "static_files.json"
REPEAT = 20
ROUNDS = 3


def apps():
    """{way: ASGI application}, the server's settings loaded from a collected STATIC_ROOT."""
    from game.testing import live

    production_settings()
    os.environ["STATIC_ROOT"] = str(live.collected_static())
    from django.core.asgi import get_asgi_application

    from game.web.assets import StaticFront

    django = get_asgi_application()
    return {"front": StaticFront(django), "django": django}


def client_files():
    """The hashed names of the client's modules and stylesheets."""
    manifest = json.loads((Path(os.environ["STATIC_ROOT"]) / "staticfiles.json").read_text())
    return [
        f"/static/{name}"
        for key, name in manifest["paths"].items()
        if key.startswith(("js/", "css/"))
    ]


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


async def cpu_per_file(app, files):
    """This process's CPU-milliseconds per file, over REPEAT passes of `files`."""
    start = time.process_time()
    for _ in range(REPEAT):
        for path in files:
            assert await ask(app, path) == 200, path
    return 1000 * (time.process_time() - start) / (REPEAT * len(files))


async def main():
    ways = apps()
    files = client_files()
    found = {way: [] for way in ways}
    for _ in range(ROUNDS):
        for way, app in ways.items():
            found[way].append(round(await cpu_per_file(app, files), 3))
    report = {"files": len(files), "repeat": REPEAT, "cpu_ms_per_file": found}
    for way, figures in found.items():
        print(f"{way:7} CPU ms a file, each round: {figures}")
    best = {way: min(figures) for way, figures in found.items()}
    print(f"the front: {best['front'] / best['django']:.0%} of Django's CPU a file")
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")  # Django's note on streaming a file from a thread
    asyncio.run(main())
