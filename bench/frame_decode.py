"""Decode cost per client frame: the schema's msgspec decoder (game/race/protocol.py)
beside the hand parser it replaced (orjson, then a dict of per-type checks), in
alternate rounds of the same run, so that one machine's load falls on both alike.

The hand parser is read from the commit before the schema (`BEFORE`) with `git show`,
so the comparison stays possible once the tree holds only the schema. Prints the
figures and writes them to bench/results/frame_decode.json.
"""

import contextlib
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

import django  # noqa: E402

django.setup()

from bench._services import module_at  # noqa: E402
from game.base.errors import GameError  # noqa: E402
from game.race import protocol  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "frame_decode.json"
BEFORE = "85eb6f7"
"""The last commit whose game/race/protocol.py parsed frames by hand."""
FRAMES = {
    "move": '{"type":"move","seq":17,"slots":["P1","P8"]}',
    "trio": '{"type":"move","seq":18,"slots":["P8","P5","P3"]}',
    "undo": '{"type":"undo","seq":19}',
    "ping": '{"type":"ping"}',
    "join": '{"type":"join","name":"Ada Lovelace"}',
    "bad seq": '{"type":"move","seq":"1","slots":["P1","P8"]}',
    "unknown": '{"type":"teleport"}',
}
ROUNDS, COUNT = 15, 20_000


def hand_parser():
    return module_at(BEFORE, "game/race/protocol.py", "hand_protocol").parse


def per_frame_us(parse, text):
    start = time.perf_counter()
    for _ in range(COUNT):
        with contextlib.suppress(GameError):
            parse(text)
    return (time.perf_counter() - start) / COUNT * 1e6


def main():
    parsers = {"hand (orjson + checks)": hand_parser(), "schema (msgspec)": protocol.parse}
    figures = {}
    for frame, text in FRAMES.items():
        rounds = {name: [] for name in parsers}
        for _ in range(ROUNDS):  # alternate: hand, schema, hand, schema, ...
            for name, parse in parsers.items():
                rounds[name].append(per_frame_us(parse, text))
        figures[frame] = {name: round(statistics.median(r), 3) for name, r in rounds.items()}
        print(f"{frame:8}", "  ".join(f"{n}: {us:.3f} µs" for n, us in figures[frame].items()))
    RESULTS.write_text(
        json.dumps({"python": platform.python_version(), "median_us_per_frame": figures}, indent=1)
        + "\n"
    )


if __name__ == "__main__":
    main()
