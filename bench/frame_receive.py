"""Server CPU per client frame received: autobahn's way (its `dataReceived`, frame by
frame through `processData`) beside halfmoon_site/fast_frames.py's, each on a daphne
websocket of its own, open, on a transport that writes nowhere, both patched as the
server runs them (halfmoon_site.asgi imported), in alternate rounds of the same run,
so that one machine's load falls on both alike.

Each figure is µs per frame, from the bytes to the text on daphne's application
queue. Prints the figures and writes them to bench/results/frame_receive.json.
"""

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
from game.testing.daphne_sockets import Transport, client_frame, open_socket  # noqa: E402
from halfmoon_site import fast_frames  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "frame_receive.json"
MOVE = '{"type":"move","seq":12,"slots":[3,7]}'
CHUNKS = {  # what one read of the socket brings, and how many frames it holds
    "move (38 B)": (client_frame(MOVE.encode()), 1),
    "join, accented (45 B)": (client_frame('{"type":"join","name":"Zoë Brontë"}'.encode()), 1),
    "3 moves in one read": (client_frame(MOVE.encode()) * 3, 3),
    "2 KiB text (16-bit length)": (client_frame(b"x" * 2048), 1),
}
WAYS = {"autobahn": fast_frames._autobahn_received, "fast": fast_frames._received}
ROUNDS, COUNT = 11, 10_000


class Nowhere(Transport):
    def write(self, data):
        pass


def per_frame_us(receive, protocol, queue, chunk, frames):
    del queue[:]
    start = time.perf_counter()
    for _ in range(COUNT):
        receive(protocol, chunk)
    elapsed = time.perf_counter() - start
    assert len(queue) == COUNT * frames  # every frame reached daphne's queue
    return elapsed / (COUNT * frames) * 1e6


def main():
    sockets = {way: open_socket(Nowhere()) for way in WAYS}
    figures = {}
    for name, (chunk, frames) in CHUNKS.items():
        rounds = {way: [] for way in WAYS}
        for _ in range(ROUNDS):  # alternate: autobahn, fast, autobahn, fast, ...
            for way, receive in WAYS.items():
                protocol, queue, _transport = sockets[way]
                rounds[way].append(per_frame_us(receive, protocol, queue, chunk, frames))
        figures[name] = {way: round(statistics.median(r), 2) for way, r in rounds.items()}
        print(f"{name:28}", "  ".join(f"{w}: {us:6.2f} µs" for w, us in figures[name].items()))
    RESULTS.write_text(
        json.dumps({"python": platform.python_version(), "median_us_per_frame": figures}, indent=1)
        + "\n"
    )


if __name__ == "__main__":
    main()
