"""Protocol fuzz at scale: 100,000 mutated frames to two real daphne processes.

Sockets on both processes — players of solo games, players and spectators of
lobby races — send frames made by mutating valid ones (characters flipped,
text cut, fields dropped, added or given any JSON value, types swapped, deep
nesting, oversized or binary frames), in batches each followed by a `sync`
whose `state` answer paces the next batch (it queues behind the batch's valid
frames, so no queue grows without end). Reports:

- crashes: a server process that exited, or a socket closed with 1011
  (internal error) — target 0;
- unhandled exceptions: tracebacks and ERROR lines in the servers' logs —
  target 0;
- RSS of each process after a warm-up and at the end, and the growth;
- what came back: frames by type, `error` codes, closes by code.

Writes bench/results/fuzz.json. Needs PostgreSQL and Redis like bench/load.py.
"""

import argparse
import asyncio
import collections
import json
import os
import random
import re
import tempfile
import time
from pathlib import Path

import psutil
from _services import (
    DAILY_SECRET,
    REDIS_URL,
    ROOT,
    SECRET_KEY,
    Browser,
    Player,
    fresh_database,
    services_missing,
    start_servers,
)
from websockets.exceptions import ConnectionClosed

from game.engine import SLOTS
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN

RESULTS = Path(__file__).parent / "results" / "fuzz.json"
DATABASE = "halfmoon_fuzz"
BATCH = 40
SEEDS = [
    {"type": "join", "name": "Fuzz"},
    {"type": "start"},
    *({"type": "move", "seq": n, "slots": list(m)} for n, m in enumerate(RULE_BOOK_WIN[:6], 1)),
    {"type": "undo", "seq": 2},
    {"type": "resign"},
    {"type": "sync"},
    {"type": "rematch"},
    {"type": "ping"},
]
ODD_VALUES = [
    None, True, False, 0, -1, 1, 2**31, 2**63, -(2**63), 1e308, 1.5, float("nan"),
    float("inf"), "", " ", "P1", "R8", "p1", "Z9", "\u0000", "\u202e", "é" * 30, "x" * 5000,
    [], [[]], {}, {"type": "move"}, ["P1", "P8"], ["P1"] * 50, list(SLOTS),
]  # fmt: skip
"""JSON values that have broken parsers before: limits, types, control and RTL marks."""


class Mutator:
    """Frames made from SEEDS by one to three random mutations."""

    def __init__(self, seed):
        self.random = random.Random(seed)

    def frame(self):
        """A text frame (str) or, rarely, a binary one (bytes)."""
        pick = self.random
        if pick.random() < 0.02:
            return pick.randbytes(pick.randint(0, 64))
        frame = json.loads(json.dumps(pick.choice(SEEDS)))
        for _ in range(pick.randint(1, 3)):
            frame = pick.choice(self.structural)(self, frame)
        text = frame if isinstance(frame, str) else json.dumps(frame)
        if pick.random() < 0.3:
            text = pick.choice(self.textual)(self, text)
        return text

    def set_field(self, frame):
        if isinstance(frame, dict):
            key = self.random.choice(["type", "seq", "slots", "name", "extra", ""])
            frame[key] = self.random.choice(ODD_VALUES)
        return frame

    def drop_field(self, frame):
        if isinstance(frame, dict) and frame:
            del frame[self.random.choice(list(frame))]
        return frame

    def swap_type(self, frame):
        if isinstance(frame, dict):
            frame["type"] = self.random.choice(SEEDS)["type"]
        return frame

    def wrap(self, frame):
        return self.random.choice([[frame], {"type": frame}, json.dumps(frame)])

    def nest(self, frame):
        depth = self.random.choice([10, 100, 1000, 3000])
        return "[" * depth + json.dumps(frame) + "]" * depth

    def random_slots(self, frame):
        if isinstance(frame, dict):
            count = self.random.randint(0, 4)
            frame["slots"] = [self.random.choice([*SLOTS, "P0", "P13", "R9"]) for _ in range(count)]
        return frame

    def flip(self, text):
        chars = list(text)
        for _ in range(self.random.randint(1, 4)):
            if chars:
                chars[self.random.randrange(len(chars))] = chr(self.random.randint(0, 0x2FF))
        return "".join(chars)

    def cut(self, text):
        return text[: self.random.randrange(len(text) + 1)]

    def pad(self, text):
        return text + " " * self.random.choice([10, 4096, 20000])

    structural = (set_field, drop_field, swap_type, wrap, nest, random_slots, set_field)
    textual = (flip, cut, pad)


class Tally:
    def __init__(self):
        self.sent = 0
        self.answers = collections.Counter()
        self.errors = collections.Counter()
        self.closes = collections.Counter()

    def read(self, text):
        frame = json.loads(text)
        self.answers[frame["type"]] += 1
        if frame["type"] == "error":
            self.errors[frame["code"]] += 1
        return frame


async def fuzz_socket(player, mutator, tally, quota, deadline):
    """Send batches of mutated frames, each paced by a sync (asked again while the socket
    is answered `busy`); reopen the socket if closed."""
    while tally.sent < quota and time.monotonic() < deadline:
        try:
            for _ in range(BATCH):
                frame = mutator.frame()
                await player.ws.send(frame)
                tally.sent += 1
            await player.send("sync")
            async with asyncio.timeout(30):
                while (answer := tally.read(await player.ws.recv()))["type"] != "state":
                    if answer.get("code") == "busy":  # a sync refused too: ask again
                        await asyncio.sleep(0.1)
                        await player.send("sync")
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            tally.closes[code] += 1
            player = Player(player.browser, player.server, player.room)
            await player.open()
        except TimeoutError:
            tally.closes["no answer in 30 s"] += 1
            await player.close()
            player = Player(player.browser, player.server, player.room)
            await player.open()
    await player.close()


async def fuzz_all(players, mutators, tally, quota, deadline):
    pairs = zip(players, mutators, strict=True)
    await asyncio.gather(*(fuzz_socket(p, m, tally, quota, deadline) for p, m in pairs))


async def seat(servers, index):
    """One socket: a solo player, or a player or spectator of a lobby race."""
    server = servers[index % 2]
    browser = Browser()
    await asyncio.to_thread(browser.get, f"{server.url}/")
    solo = index % 3 != 2
    body = {"deal": RULE_BOOK_DEAL, "solo": solo} if solo else {"deal": RULE_BOOK_DEAL}
    room = (await asyncio.to_thread(browser.post, f"{server.url}/api/races/", body))["room"]
    player = Player(browser, server, room)
    await player.open()
    return player


def rss_mb(processes):
    return [round(process.memory_info().rss / 2**20, 1) for process in processes]


def log_problems(log_dir):
    """Tracebacks and ERROR lines in the servers' logs (LOG_LEVEL=WARNING)."""
    problems = []
    for log in sorted(Path(log_dir).glob("daphne-*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("Traceback") or re.search(r"\b(ERROR|CRITICAL)\b", line):
                problems.append(f"{log.name}: {line[:200]}")
    return problems


async def run(args, log_dir):
    env = {
        "DATABASE_URL": fresh_database(DATABASE),
        "REDIS_URL": REDIS_URL,
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "HALFMOON_DAILY_SECRET": DAILY_SECRET,
        "SECURE_COOKIES": "0",
        "HALFMOON_FRAME_RATE": "100000",
        "HALFMOON_FRAME_BURST": "100000",
        "HALFMOON_COUNTDOWN_S": "0.5",
        "HALFMOON_DAILY_SOLVE_S": "0.05",
        "LOG_LEVEL": "WARNING",
    }
    servers = start_servers(2, env, log_dir)
    processes = [psutil.Process(server.process.pid) for server in servers]
    tally = Tally()
    try:
        players = [await seat(servers, index) for index in range(args.sockets)]
        mutators = [Mutator(args.seed * 1000 + n) for n in range(args.sockets)]
        deadline = time.monotonic() + args.max_seconds
        warmup = min(args.frames // 20, 5000)
        await fuzz_all(players, mutators, tally, warmup, deadline)
        rss_before = rss_mb(processes)
        players = [await seat(servers, index) for index in range(args.sockets)]
        started = time.monotonic()
        await fuzz_all(players, mutators, tally, args.frames, deadline)
        seconds = time.monotonic() - started
        rss_after = rss_mb(processes)
        exited = [server.process.poll() for server in servers]
    finally:
        for server in servers:
            server.stop()
    problems = log_problems(log_dir)
    crashes = sum(code is not None for code in exited) + tally.closes.get(1011, 0)
    return {
        "frames": tally.sent,
        "sockets": args.sockets,
        "seconds": round(seconds, 1),
        "frames_per_s": round((tally.sent - warmup) / seconds, 1),
        "crashes": crashes,
        "processes_exited": exited,
        "unhandled_exceptions": len(problems),
        "log_problems_sample": problems[:20],
        "rss_mb": {
            "after_warmup": rss_before,
            "at_end": rss_after,
            "growth": [round(b - a, 1) for a, b in zip(rss_before, rss_after, strict=True)],
        },
        "answers": dict(tally.answers.most_common()),
        "error_codes": dict(tally.errors.most_common()),
        "closes": {str(code): n for code, n in tally.closes.items()},
        "load_average": round(os.getloadavg()[0], 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--sockets", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=240, help="stop sending after this")
    args = parser.parse_args()
    problem = services_missing()
    if problem:
        print(f"fuzz bench skipped: {problem}")
        return
    with tempfile.TemporaryDirectory() as log_dir:
        report = asyncio.run(run(args, log_dir))
    print(
        f"{report['frames']} frames in {report['seconds']} s ({report['frames_per_s']}/s) "
        f"on 2 processes: crashes {report['crashes']}, unhandled exceptions "
        f"{report['unhandled_exceptions']}, RSS growth {report['rss_mb']['growth']} MB"
    )
    print(f"errors answered: {report['error_codes']}")
    print(f"closes: {report['closes']}")
    for line in report["log_problems_sample"][:5]:
        print(f"  {line}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
