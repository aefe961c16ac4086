"""Race server under load: N players on 2 daphne processes, Redis + PostgreSQL.

For each channels-redis backend (RedisChannelLayer "core", RedisPubSubChannelLayer
"pubsub"), starts two daphne processes on a fresh PostgreSQL database
(`halfmoon_bench`, dropped and migrated first), seats N players in races of 4 with
each race split across both processes, and lets every player play as fast as the
server answers (closed loop: one move in flight per player; a legal move from the
tops it sees, or an undo when blocked) for a fixed time. Measured:

- moves/s acknowledged by the server, all players together;
- move round trip: `move` sent -> `moved` received (the database transaction);
- progress fan-out: `move` sent -> the opponents' `progress` received, which crosses
  the channel layer (and, for half the opponents, the other process).

Prints the figures and writes bench/results/load.json. Needs PostgreSQL
(BENCH_DATABASE_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres) and
Redis (REDIS_URL, default redis://127.0.0.1:6379/0); skips with a message otherwise.
The per-socket frame limit is lifted for the run (HALFMOON_FRAME_RATE): a bench
player moves faster than any person.
"""

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from _services import (
    DAILY_SECRET,
    REDIS_URL,
    ROOT,
    SECRET_KEY,
    Browser,
    Player,
    fresh_database,
    percentile,
    services_missing,
    start_servers,
    stored_moves,
)

from game.engine import Deal, Game

RESULTS = Path(__file__).parent / "results" / "load.json"
CHART = RESULTS.with_suffix(".svg")
DATABASE = "halfmoon_bench"
DEAL = "HM1-N-AAAAAAB"
RACE_SIZE = 4


class Racer:
    """One bench player: plays in a closed loop and times what comes back."""

    def __init__(self, socket, sent_at, fanout, seed):
        self.socket, self.sent_at, self.fanout = socket, sent_at, fanout
        self.random = random.Random(seed)
        self.round_trips, self.answers = [], asyncio.Queue()

    async def read(self):
        async for text in self.socket.ws:
            frame = json.loads(text)
            if frame["type"] in ("moved", "rejected"):
                self.answers.put_nowait(frame)
            elif frame["type"] == "progress" and frame["player"] != self.id:
                sent = self.sent_at.get((frame["player"], frame["seq"]))
                if sent is not None:
                    self.fanout.append(time.perf_counter() - sent)

    async def play(self, state, until):
        """Moves chosen by a local engine on the same deal (no rule twin here); the
        server's answers are checked against it."""
        self.id = state["you"]["player"]
        game, seq = Game(Deal.from_code(DEAL)), state["board"]["seq"]
        reader = asyncio.ensure_future(self.read())
        while time.perf_counter() < until and game.status != "won":
            moves = game.legal_moves()
            if not moves and not game.history:
                break
            seq += 1
            if moves:
                frame = {"type": "move", "seq": seq, "slots": list(self.random.choice(moves))}
            else:
                frame = {"type": "undo", "seq": seq}
            started = self.sent_at[(self.id, seq)] = time.perf_counter()
            await self.socket.ws.send(json.dumps(frame))
            answer = await self.answers.get()
            self.round_trips.append(time.perf_counter() - started)
            result = game.remove(frame["slots"]) if moves else game.undo()
            revealed = list(answer.get("revealed", {}).values())
            if answer["type"] != "moved" or revealed != list(result.revealed):
                raise RuntimeError(f"server and engine disagree: {answer} vs {result}")
        await asyncio.sleep(0.5)  # let the last progress frames arrive
        reader.cancel()


async def seat_race(one, two, index):
    """A race of RACE_SIZE players, alternately on server one and two; started."""
    browsers = [Browser() for _ in range(RACE_SIZE)]
    servers = [one if n % 2 == 0 else two for n in range(RACE_SIZE)]
    browsers[0].get(f"{one.url}/play/{DEAL}/")
    room = browsers[0].post(f"{one.url}/api/races/", {"deal": DEAL, "name": f"r{index}p0"})["room"]
    players = []
    for n, (browser, server) in enumerate(zip(browsers, servers, strict=True)):
        if n:
            browser.get(f"{server.url}/race/{room}/")
        player = Player(browser, server, room)
        await player.open()
        if n:
            await player.send("join", name=f"r{index}p{n}")
            await player.expect("state")
        players.append(player)
    await players[0].send("start")
    states = []
    for player in players:
        await player.expect("started", timeout=20)
        states.append(await player.expect("state", timeout=20))
    return players, states


def count_moves(database_url):
    import psycopg

    with psycopg.connect(database_url) as conn:
        entries = [entry for (entry,) in conn.execute("SELECT id FROM game_entry")]
        return len(stored_moves(conn, entries))


async def run_layer(layer, players_count, seconds, log_dir):
    database_url = fresh_database(DATABASE)
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "CHANNEL_LAYER": layer,
        "HALFMOON_COUNTDOWN_S": "0.5",
        "HALFMOON_FRAME_RATE": "100000",
        "HALFMOON_FRAME_BURST": "100000",
        "HALFMOON_DAILY_SOLVE_S": "0.05",
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "HALFMOON_DAILY_SECRET": DAILY_SECRET,
        "SECURE_COOKIES": "0",
        "LOG_LEVEL": "WARNING",
    }
    one, two = start_servers(2, env, log_dir)
    try:
        seated = [await seat_race(one, two, index) for index in range(players_count // RACE_SIZE)]
        sent_at, fanout = {}, []
        racers, games = [], []
        for race_index, (players, states) in enumerate(seated):
            for n, (player, state) in enumerate(zip(players, states, strict=True)):
                racer = Racer(player, sent_at, fanout, seed=race_index * 10 + n)
                racers.append(racer)
                games.append((racer, state))
        started = time.perf_counter()
        until = started + seconds
        await asyncio.gather(*(racer.play(state, until) for racer, state in games))
        elapsed = time.perf_counter() - started - 0.5
        for players, _ in seated:
            for player in players:
                await player.close()
        acknowledged = sum(len(racer.round_trips) for racer in racers)
        stored = count_moves(database_url)
    finally:
        one.stop()
        two.stop()
    trips = [t for racer in racers for t in racer.round_trips]
    return {
        "players": len(racers),
        "seconds": round(elapsed, 2),
        "moves": acknowledged,
        "moves_per_s": round(acknowledged / elapsed, 1),
        "move_rtt_ms": {
            "p50": round(percentile(trips, 0.50) * 1000, 2),
            "p99": round(percentile(trips, 0.99) * 1000, 2),
        },
        "progress_fanout_ms": {
            "p50": round(percentile(fanout, 0.50) * 1000, 2),
            "p99": round(percentile(fanout, 0.99) * 1000, 2),
            "mean": round(statistics.fmean(fanout) * 1000, 2),
            "delivered": len(fanout),
            "expected": acknowledged * (RACE_SIZE - 1),
        },
        "stored_moves": stored,
        "lost_moves": acknowledged - stored,
    }


def summary(rounds):
    """The median round of each figure, and the rounds themselves."""

    def median(path):
        values = []
        for result in rounds:
            value = result
            for key in path:
                value = value[key]
            values.append(value)
        return round(statistics.median(values), 2)

    return {
        "moves_per_s": median(["moves_per_s"]),
        "move_rtt_ms_p50": median(["move_rtt_ms", "p50"]),
        "move_rtt_ms_p99": median(["move_rtt_ms", "p99"]),
        "progress_fanout_ms_p50": median(["progress_fanout_ms", "p50"]),
        "progress_fanout_ms_p99": median(["progress_fanout_ms", "p99"]),
        "lost_moves": sum(result["lost_moves"] for result in rounds),
        "rounds": rounds,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16, help="a multiple of 4")
    parser.add_argument("--seconds", type=float, default=8.0, help="of play per round")
    parser.add_argument("--rounds", type=int, default=3, help="per layer, alternating")
    parser.add_argument("--layers", default="core,pubsub")
    args = parser.parse_args()
    problem = services_missing()
    if problem:
        print(f"load bench skipped: {problem}")
        return
    layers = args.layers.split(",")
    rounds = {layer: [] for layer in layers}
    with tempfile.TemporaryDirectory() as log_dir:
        for round_number in range(1, args.rounds + 1):
            for layer in layers:
                result = asyncio.run(run_layer(layer, args.players, args.seconds, log_dir))
                rounds[layer].append(result)
                rtt, fan = result["move_rtt_ms"], result["progress_fanout_ms"]
                print(
                    f"round {round_number} {layer:>6}: {result['moves_per_s']:>7} moves/s, "
                    f"move rtt p50 {rtt['p50']} p99 {rtt['p99']} ms, "
                    f"progress fan-out p50 {fan['p50']} p99 {fan['p99']} ms "
                    f"({fan['delivered']}/{fan['expected']}), lost {result['lost_moves']}"
                )
    report = {
        "players": args.players,
        "seconds_per_round": args.seconds,
        "processes": 2,
        "layers": {layer: summary(results) for layer, results in rounds.items()},
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_at_end": os.getloadavg()[0],
    }
    for layer, figures in report["layers"].items():
        print(
            f"median {layer:>6}: {figures['moves_per_s']} moves/s, move rtt p50 "
            f"{figures['move_rtt_ms_p50']} p99 {figures['move_rtt_ms_p99']} ms, progress fan-out "
            f"p50 {figures['progress_fanout_ms_p50']} p99 {figures['progress_fanout_ms_p99']} ms"
        )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    CHART.write_text(layers_svg(report))
    print(f"wrote {RESULTS.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


BARS = (
    ("moves_per_s", "moves/s"),
    ("move_rtt_ms_p50", "move round trip p50, ms"),
    ("move_rtt_ms_p99", "move round trip p99, ms"),
    ("progress_fanout_ms_p50", "opponent sees it p50, ms"),
    ("progress_fanout_ms_p99", "opponent sees it p99, ms"),
)
COLOURS = ("#4a7ab5", "#d08c2f", "#5a9e6f")


def layers_svg(report, width=640, row=22):
    """The layers side by side, one group of bars per figure, as a standalone SVG."""
    layers = list(report["layers"])
    group = row * len(layers) + 14
    height = 50 + group * len(BARS)
    title = (
        f"{report['players']} players on {report['processes']} daphne processes (medians of rounds)"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="10" y="18" font-size="13">{title}</text>',
    ]
    for index, (key, label) in enumerate(BARS):
        top = 36 + index * group
        largest = max(report["layers"][layer][key] for layer in layers) or 1
        parts.append(f'<text x="10" y="{top + 10}">{label}</text>')
        for position, layer in enumerate(layers):
            value = report["layers"][layer][key]
            y = top + 14 + position * row
            length = 380 * value / largest
            colour = COLOURS[position % len(COLOURS)]
            parts.append(f'<text x="190" y="{y + 13}" text-anchor="end">{layer}</text>')
            parts.append(
                f'<rect x="200" y="{y}" width="{length:.1f}" height="{row - 6}" fill="{colour}"/>'
            )
            parts.append(f'<text x="{205 + length:.1f}" y="{y + 13}">{value}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    main()
