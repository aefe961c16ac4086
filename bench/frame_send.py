"""Server CPU per text frame sent to a client: daphne's way (its `Server.handle_reply`,
through its websocket's `serverSend` and autobahn's `sendMessage`, `sendFrame` and
`sendData`) beside halfmoon_site/fast_sends.py's, each on a daphne websocket of its
own, open, on a transport that writes nowhere, both patched as the server runs them
(halfmoon_site.asgi imported), in alternate rounds of the same run, so that one
machine's load falls on both alike.

Each figure is µs per frame, from the application's `websocket.send` to the bytes
handed to the transport. Prints the figures and writes them to
bench/results/frame_send.json.
"""

import asyncio
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "halfmoon_site.settings")

import halfmoon_site.asgi  # noqa: E402, F401 - the server's patches, as daphne runs it
from game.testing.daphne_sockets import Transport, open_socket  # noqa: E402
from halfmoon_site import fast_sends  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "frame_send.json"
PROGRESS = (
    '{"type":"progress","player":1204,"name":"Ada","seq":13,"kind":"move","slots":["P3","R7"],'
    '"score":40,"moves":13,"cards_left":80,"status":"playing","heights":[8,8,7,8,8,8,7,8,8,8,8,8],'
    '"event":55}'
)
TEXTS = {
    "progress (185 B)": PROGRESS,
    "state (2 KiB, 16-bit length)": "x" * 2048,
}
WAYS = {"daphne": fast_sends._daphne_reply, "fast": fast_sends._reply}
ROUNDS, COUNT = 11, 10_000


class Nowhere(Transport):
    def __init__(self):
        super().__init__()
        self.frames = 0

    def write(self, data):
        self.frames += 1


class Connections:
    """The part of daphne's Server its reply reads: the connections it holds."""

    check_headers_type = staticmethod(lambda message: None)

    def __init__(self, protocol):
        self.connections = {protocol: {}}


async def per_frame_us(reply, protocol, message):
    server, transport = Connections(protocol), protocol.transport
    transport.frames = 0
    start = time.perf_counter()
    for _ in range(COUNT):
        await reply(server, protocol, message)
    elapsed = time.perf_counter() - start
    assert transport.frames == COUNT  # every frame reached the transport, once
    return elapsed / COUNT * 1e6


async def main():
    sockets = {way: open_socket(Nowhere())[0] for way in WAYS}
    figures = {}
    for name, text in TEXTS.items():
        message = {"type": "websocket.send", "text": text}
        rounds = {way: [] for way in WAYS}
        for _ in range(ROUNDS):  # alternate: daphne, fast, daphne, fast, ...
            for way, reply in WAYS.items():
                rounds[way].append(await per_frame_us(reply, sockets[way], message))
        figures[name] = {way: round(statistics.median(r), 2) for way, r in rounds.items()}
        print(f"{name:30}", "  ".join(f"{w}: {us:6.2f} µs" for w, us in figures[name].items()))
    RESULTS.write_text(
        json.dumps({"python": platform.python_version(), "median_us_per_frame": figures}, indent=1)
        + "\n"
    )


if __name__ == "__main__":
    asyncio.run(main())
