"""A rolling restart under load: what players notice when both replicas are redeployed.

nginx with deploy/nginx.conf in front of two daphne processes
(game/testing/entrance.py), N players in races of 4 joined through it, each moving
once a second (one move in flight, the browser client's way: a move left
unanswered by a dropped socket is sent again with the same `seq` once back).
After a warm-up replica 1 gets SIGTERM, is started again and, once nginx sends it
sockets again, replica 2 the same; play goes on a few seconds more.

Printed: how long each replica took to exit, the sockets dropped by close code (a
restart closes with 1012), reconnect times (drop → the new socket's `state`: p50,
p99, slowest), moves acknowledged and lost (acknowledged, not in the database:
every one checked), entries counted out (`abandoned`), `player_left` frames seen,
and errors. Writes bench/results/rolling_restart.json.

    .venv/bin/python bench/rolling_restart.py --players 600

Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL), Redis (REDIS_URL) and nginx (NGINX or
on PATH); skips otherwise. On a shared machine the times are indicative only.
"""

import argparse
import asyncio
import collections
import json
import os
import random
import shutil
import signal
import tempfile
import time
from pathlib import Path

from _services import (
    DAILY_SECRET,
    REDIS_URL,
    SECRET_KEY,
    Player,
    fresh_database,
    percentile,
    seated_race,
    services_missing,
    stored_moves,
)
from websockets.exceptions import WebSocketException

from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.testing.entrance import entrance
from game.testing.live import environment

RESULTS = Path(__file__).parent / "results" / "rolling_restart.json"
DATABASE = "halfmoon_rolling"
RACE_SIZE = 4
LINE = [list(move) for move in RULE_BOOK_WIN[:-1]]
"""The rule book's win but its last move (which would end the game): then undo and
play the last of these again, as long as the run lasts."""
ANSWER_S = 10
SEATING = 8
SETTINGS = {
    "DEBUG": "0",
    "SECRET_KEY": SECRET_KEY,
    "HALFMOON_DAILY_SECRET": DAILY_SECRET,
    "SECURE_COOKIES": "0",
    "HALFMOON_TRUSTED_PROXIES": "127.0.0.1",
    "PYTHONUNBUFFERED": "1",
    "HALFMOON_COUNTDOWN_S": "0.5",
    "HALFMOON_DAILY_SOLVE_S": "0.05",
    "HALFMOON_CREATE_ADDRESS_LIMIT": "100000/60",
    "HALFMOON_ADDRESS_FRAME_RATE": "100000",
    "HALFMOON_ADDRESS_FRAME_BURST": "100000",
    "LOG_LEVEL": "WARNING",
}


def frame_for(seq):
    """The move `seq` of a player: the line, then undo and redo its last move."""
    if seq <= len(LINE):
        return {"type": "move", "seq": seq, "slots": LINE[seq - 1]}
    if (seq - len(LINE)) % 2:
        return {"type": "undo", "seq": seq}
    return {"type": "move", "seq": seq, "slots": LINE[-1]}


class Client:
    """One player through the entrance, moving once a second, reconnecting like the
    browser: within a 1 s jitter after a 1012, else with backoff."""

    def __init__(self, player, entry, tally):
        self.player, self.entry, self.tally = player, entry, tally
        self.seq = 0

    async def run(self, stop):
        pending = None
        while pending or not stop.is_set():
            pending = pending or frame_for(self.seq + 1)
            sent = time.monotonic()
            try:
                await self.player.ws.send(json.dumps(pending))
                answer = await self.answer(pending["seq"])
            except (OSError, WebSocketException):
                await self.reconnect()
                continue
            if answer is None:
                self.tally.errors["unanswered"] += 1
                if stop.is_set():
                    return  # counted; a socket that never answers must not hold the run
            elif answer["type"] == "moved":
                self.seq, pending = pending["seq"], None
                self.tally.acked.add((self.entry, self.seq))
                await asyncio.sleep(max(0.0, sent + 1 - time.monotonic()))
            else:
                self.tally.errors[f"{answer['type']} {answer.get('code')}"] += 1
                await asyncio.sleep(0.5)

    async def answer(self, seq):
        """This move's `moved` or `rejected`, or an `error`; None after ANSWER_S."""
        try:
            async with asyncio.timeout(ANSWER_S):
                while True:
                    frame = json.loads(await self.player.ws.recv())
                    kind = frame["type"]
                    if kind == "player_left":
                        self.tally.left += 1
                    if kind in ("moved", "rejected") and frame["seq"] == seq or kind == "error":
                        return frame
        except TimeoutError:
            return None

    async def reconnect(self):
        code = self.player.ws.close_code
        self.tally.closes[code] += 1
        dropped, attempt = time.monotonic(), 0
        await asyncio.sleep(random.random() if code == 1012 else 0.5)
        while True:
            again = Player(self.player.browser, self.player.server, self.player.room)
            try:
                await again.open()
                break
            except (OSError, TimeoutError, WebSocketException):
                attempt += 1
                await asyncio.sleep(min(10, 0.5 * 2**attempt))
        self.player = again
        self.tally.outages.append(time.monotonic() - dropped)


class Tally:
    """What every client saw."""

    def __init__(self):
        self.acked, self.outages, self.left = set(), [], 0
        self.closes, self.errors = collections.Counter(), collections.Counter()


async def seat(front, index, tally):
    """A started race of RACE_SIZE players through the entrance, as clients."""
    players = await seated_race(front, index, RACE_SIZE, RULE_BOOK_DEAL)
    return [Client(player, player.id, tally) for player in players]


async def seated(front, players, tally):
    gate = asyncio.Semaphore(SEATING)

    async def one(index):
        async with gate:
            try:
                return await seat(front, index, tally)
            except Exception as exc:  # a loaded machine: the run goes on with the others
                tally.errors[f"seat {type(exc).__name__}"] += 1
                return []

    races = await asyncio.gather(*(one(n) for n in range(players // RACE_SIZE)))
    return [client for race in races for client in race]


async def rolling(front):
    """Each replica in turn: SIGTERM, started again, and sent sockets by nginx again.
    [(exit code, seconds to exit, seconds until routed again)]."""
    rooms = await front.rooms_by_replica()
    steps = []
    for replica in front.replicas:
        began = time.monotonic()
        code = await asyncio.to_thread(replica.kill, signal.SIGTERM, 30)
        exited = time.monotonic() - began
        await asyncio.to_thread(replica.start().wait_ready, 120)
        await front.until_routed(replica, rooms[replica], 120)
        steps.append((code, round(exited, 2), round(time.monotonic() - began, 2)))
        print(f"replica {replica.port}: exit {code} in {exited:.2f} s, back in {steps[-1][2]} s")
    return steps


def stored(database_url, entries):
    import psycopg

    with psycopg.connect(database_url) as conn:
        moves = stored_moves(conn, entries)
        abandoned = conn.execute(
            "SELECT count(*) FROM game_entry WHERE id = ANY(%s) AND status = 'abandoned'",
            (entries,),
        ).fetchone()[0]
    return moves, abandoned


async def bench(args, log_dir):
    database_url = fresh_database(DATABASE)
    env = environment(database_url, REDIS_URL, **SETTINGS)
    tally = Tally()
    with entrance(args.nginx, env, log_dir) as front:
        clients = await seated(front, args.players, tally)
        print(f"{len(clients)} players seated in {len(clients) // RACE_SIZE} races")
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(client.run(stop)) for client in clients]
        await asyncio.sleep(args.warmup)
        before = len(tally.acked)
        steps = await rolling(front)
        await asyncio.sleep(args.after)
        stop.set()
        await asyncio.gather(*tasks)
    moves, abandoned = stored(database_url, [client.entry for client in clients])
    return report(args, tally, steps, before, moves, abandoned)


def report(args, tally, steps, before, moves, abandoned):
    outages = tally.outages
    return {
        "players": args.players,
        "replicas": [{"exit_code": c, "exit_s": e, "back_s": b} for c, e, b in steps],
        "closes": {str(code): n for code, n in tally.closes.items()},
        "reconnects": len(outages),
        "reconnect_s": {
            "p50": round(percentile(outages, 0.5), 2) if outages else None,
            "p99": round(percentile(outages, 0.99), 2) if outages else None,
            "max": round(max(outages), 2) if outages else None,
        },
        "moves_acknowledged": len(tally.acked),
        "moves_acknowledged_during_restarts_and_after": len(tally.acked) - before,
        "lost_moves": len(tally.acked - moves),
        "abandoned": abandoned,
        "player_left_seen": tally.left,
        "errors": dict(tally.errors),
        "load_average": round(os.getloadavg()[0], 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600, help="rounded down to races of 4")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before the restarts")
    parser.add_argument("--after", type=float, default=5.0, help="seconds after them")
    parser.add_argument(
        "--nginx", default=os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    )
    parser.add_argument("--log-dir", help="keep the servers' and nginx's logs here")
    args = parser.parse_args()
    args.players -= args.players % RACE_SIZE
    problem = services_missing() or (None if args.nginx else "nginx not found (NGINX=...)")
    if problem:
        print(f"rolling-restart bench skipped: {problem}")
        return
    with tempfile.TemporaryDirectory() as scratch:
        log_dir = Path(args.log_dir or scratch)
        log_dir.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(bench(args, log_dir))
    print(json.dumps(result, indent=2))
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
