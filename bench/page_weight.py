"""
What the game page costs a browser: bytes over the wire, requests, and whether
each came compressed, on a first visit (cold: empty cache) and the next (warm:
the same browser opening another game; and how many of its requests would go to
the server again on a visit an hour later, from their Cache-Control), with the
server run as in production (DEBUG=0, collected static files when STATIC_ROOT is set).

Chromium (Debian's, driven by Playwright) loads /play/<code>/ from one daphne
(game/testing/live.py) on a fresh SQLite database and counts, through the
DevTools protocol, every request the page made, the bytes each one took on the
wire (headers included) and which ones the cache answered without asking.

    python bench/page_weight.py [--label after] [--static-root DIR | --finders] [--entrance]
                                [--debug]

--debug runs the server with DEBUG on, as `make run DEBUG=1` does (before
issue 33, every `make run`): pages then name the unhashed source files.

--entrance puts nginx with deploy/nginx.conf in front of two such processes, as
docker-compose.yml runs them (game/testing/entrance.py), so the page and the
translations' script come gzipped as production sends them.

The figures are written under their label in bench/results/page_weight.json,
beside the labels measured before (a figure from an older server stays there to
compare with).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.testing import live  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "page_weight.json"
PAGES = ("/play/HM1-N-AAAAAAB/", "/play/HM1-N-AAAAAAC/")
"""The cold visit opens the first game, the warm one the second (a new page, same cache)."""
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")  # the tests' browser
ENCODED = ("gzip", "br", "deflate", "zstd")


class Wire:
    """The requests of one page load as the DevTools protocol reports them."""

    def __init__(self, cdp):
        self.requests, self.responses, self.bytes, self.cached = {}, {}, {}, set()
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._received)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))

    def _sent(self, event):
        self.requests[event["requestId"]] = event["request"]["url"]

    def _received(self, event):
        self.responses[event["requestId"]] = event["response"]

    def _finished(self, event):
        self.bytes[event["requestId"]] = event["encodedDataLength"]

    def summary(self):
        """Requests made, those that went to the server, bytes on the wire, each resource."""
        rows = []
        for rid, url in self.requests.items():
            response = self.responses.get(rid, {})
            headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
            from_cache = rid in self.cached or response.get("fromDiskCache", False)
            rows.append(
                {
                    "path": url.split("/", 3)[-1].split("?")[0],
                    "status": response.get("status"),
                    "from_cache": bool(from_cache),
                    "wire_bytes": 0 if from_cache else self.bytes.get(rid, 0),
                    "encoding": headers.get("content-encoding", ""),
                    "cache_control": headers.get("cache-control", ""),
                }
            )
        fetched = [row for row in rows if not row["from_cache"]]
        compressible = [row for row in fetched if row["status"] == 200 and _text(row["path"])]
        return {
            "requests": len(rows),
            "to_server": len(fetched),
            "wire_bytes": sum(row["wire_bytes"] for row in rows),
            "compressed": sum(1 for row in compressible if row["encoding"] in ENCODED),
            "compressible": len(compressible),
            "to_server_an_hour_later": sum(1 for row in rows if _max_age(row) < 3600),
            "resources": sorted(rows, key=lambda row: row["path"]),
        }


def _max_age(row):
    """How long the browser may keep a response without asking again (0: it asks)."""
    for part in row["cache_control"].split(","):
        name, _, value = part.strip().partition("=")
        if name == "max-age" and value.isdigit():
            return int(value)
    return 0


def _text(path):
    return not path.startswith("ws/") and not path.endswith((".png", ".ico", ".woff2"))


def measure(base_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        visits = {}
        for name, path in zip(("cold", "warm"), PAGES, strict=True):
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            wire = Wire(cdp)
            page.goto(path, wait_until="networkidle")
            page.locator(".card").first.wait_for()
            visits[name] = wire.summary()
            cdp.detach()
        browser.close()
    return visits


def collected(static_root):
    """Run collectstatic into `static_root` as the Docker image does."""
    env = {
        **os.environ,
        "STATIC_ROOT": str(static_root),
        "DJANGO_SETTINGS_MODULE": live.SETTINGS_MODULE,
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def run(static_root, workdir, through_nginx=False, debug=False):
    env = live.environment(
        f"sqlite:///{workdir / 'db.sqlite3'}",
        DEBUG="1" if debug else "0",
        SECRET_KEY="bench-" + "x" * 50,
        HALFMOON_DAILY_SECRET="bench-daily-" + "x" * 40,
        SECURE_COOKIES="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        **({"STATIC_ROOT": str(static_root)} if static_root else {}),
    )
    if not static_root:
        env.pop("STATIC_ROOT", None)
    live.manage(env, "migrate", "--noinput", "-v", "0")
    if through_nginx:
        from game.testing.entrance import entrance

        with entrance(os.environ.get("NGINX", "/usr/sbin/nginx"), env, workdir) as front:
            return measure(front.url)
    with live.running(1, env, workdir) as (daphne,):
        return measure(daphne.url)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", default="after")
    parser.add_argument("--finders", action="store_true", help="no STATIC_ROOT: the finders")
    parser.add_argument("--static-root", help="collect here (default: a temporary folder)")
    parser.add_argument("--entrance", action="store_true", help="through nginx (deploy/nginx.conf)")
    parser.add_argument("--debug", action="store_true", help="DEBUG on, as `make run DEBUG=1`")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        static_root = None
        if not args.finders:
            static_root = Path(args.static_root) if args.static_root else workdir / "static"
            collected(static_root)
        visits = run(static_root, workdir, args.entrance, args.debug)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    served = {
        "static_root": static_root is not None,
        "through_nginx": args.entrance,
        "debug": args.debug,
    }
    results[args.label] = {"page": PAGES[0], **served, **visits}
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    for name, visit in visits.items():
        counts = "{requests} requests, {to_server} to the server, {wire_bytes} bytes,"
        counts += " {compressed}/{compressible} compressed, {to_server_an_hour_later} asked"
        print(f"{args.label} {name}:", counts.format(**visit), "again an hour later")


if __name__ == "__main__":
    main()
