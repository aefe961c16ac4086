"""Open-loop load: how many players, moving once a second, the project holds — beside a ceiling.

N players in races of 4 on two server processes (PostgreSQL + Redis), each
sending one valid move a second on its own clock, without waiting for the
answer (open loop: a slow server gets more work, not less, as people would
give it). Moves replay the rule book's won game on its deal (HM1-N-AAAAAAB);
a race whose four games are won is replaced by a new one. N steps up (24, 48,
100, 200, …) until no round at N held (p99 ack ≤ 100 ms, no error, no lost move);
then a round of 48 players whose races each have 50 spectators (sockets that
only read: every move is then delivered 53 times). Two servers are measured by
this same client in the same run, alternating rounds:

- `project`: two daphne processes of this repository, each race on one of them
  as the entrance routes it (`--placement split` spreads every race over both:
  any process serves any race, and then every broadcast crosses Redis);
- `split`: the project with every race spread over both processes (what a failover
  or a replica coming back makes for a while), measured in the same run as `project`
  for the ratio of the two;
- `ceiling`: two `bench/ceiling.py` processes — plain asyncio `websockets`, the
  project's engine and protocol, each move stored and acknowledged after its
  commit, each race on one process; committed through the project's own group
  commit (`moves.Writer`, 4 lanes, a batch one statement) unless `--ceiling-commit
  one` (every move its own transaction, the old yardstick).

Every run that measured both ends with the ratio: the players the project held
as a share of the ceiling's, and per step the project's p50 and p99 ack and its
server CPU per move over the ceiling's (medians of the rounds); a run that measured
`split` beside `project`, with the split's over the project's the same way.

Per round: moves/s, p50/p99 ack (move sent → `moved`), p50/p99 progress
fan-out (move sent → an opponent's `progress`), errors (any `error` or
`rejected` frame, unanswered move, dropped socket), lost moves (acknowledged
moves missing from the database, every ack checked), CPU of each server
process, the client's own CPU and send lag (when the load generator itself is
the limit, it shows here), and the load average. Writes
bench/results/openloop.json and openloop.svg.

The default run (600, 1,000, 1,400 and 1,800 players, two rounds of 15 s each per
step and server, the three servers) starts no step after 15 minutes and takes about
twenty; `--steps`, `--rounds`, `--seconds`, `--servers` and `--budget-s` change it.
The client's own garbage collector is off while a round runs (`Pauses`). Needs
PostgreSQL (BENCH_DATABASE_ADMIN_URL) and Redis (REDIS_URL); skips otherwise.
"""

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from _players import (
    HELD_P99_MS,
    RACE_SIZE,
    ProjectSite,
    Seat,
    Stats,
    collector_off,
    cpu_seconds,
    database_cpu_seconds,
    database_cpu_spent,
    drain,
    ms,
    play_race,
    profile,
    rejected_count,
    scraped_figures,
    seat_all,
    stored_moves,
)
from _services import ROOT, fresh_database, percentile, services_missing
from websockets.asyncio.client import connect

from game.engine.examples import RULE_BOOK_DEAL

RESULTS = Path(__file__).parent / "results" / "openloop.json"
CHART = RESULTS.with_suffix(".svg")
DATABASE = "halfmoon_openloop"
PROFILE_DIR = None
"""`--profile DIR`: py-spy samples of each server process over each measured window."""


class CeilingSite:
    """Two bench/ceiling.py processes; each race on one of them."""

    name, move_table = "ceiling", "ceiling_move"
    script = Path(__file__).with_name("ceiling.py")
    commit = "group"

    def __init__(self, database_url, log_dir):
        subprocess.run(
            [
                sys.executable,
                self.script,
                "--create-tables",
                "--database-url",
                database_url,
            ],
            check=True,
        )
        self.ports, self.processes, self.logs = [], [], []
        for n in range(2):
            port = free_port()
            log = open(Path(log_dir) / f"ceiling-{n}.log", "w")  # noqa: SIM115 - closed in stop()
            command = [sys.executable, self.script, "--port", str(port), "--commit", self.commit]
            self.processes.append(
                subprocess.Popen(
                    [*command, "--database-url", database_url, "--deal", RULE_BOOK_DEAL],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            self.ports.append(port)
            self.logs.append(log)
        for port in self.ports:
            wait_for_port(port)
        self.rooms, self.room_of = 0, {}

    async def watch(self, index, count):
        url = f"ws://127.0.0.1:{self.ports[index % 2]}/ws/race/{self.room_of[index]}/"
        return [await connect(url, open_timeout=10) for _ in range(count)]

    @property
    def pids(self):
        return [process.pid for process in self.processes]

    async def seat(self, index):
        self.rooms += 1
        room, port = f"C{self.rooms:07d}", self.ports[index % 2]
        self.room_of[index] = room
        seats = []
        for n in range(RACE_SIZE):
            ws = await connect(f"ws://127.0.0.1:{port}/ws/race/{room}/", open_timeout=10)
            await ws.send(json.dumps({"type": "join", "name": f"r{index}p{n}"}))
            state = json.loads(await asyncio.wait_for(ws.recv(), 10))
            seats.append(Seat(ws, state["you"]["player"]))
        return seats

    def scrape(self):
        return None  # the ceiling has no /metrics

    def stop(self):
        for process, log in zip(self.processes, self.logs, strict=True):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


class SplitSite(ProjectSite):
    """The project with every race spread over both processes, as its own site, so that
    `--servers project,split` measures both placements in alternating rounds of one run."""

    name = "split"
    placement = "split"


SITES = {site.name: site for site in (ProjectSite, CeilingSite, SplitSite)}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port}")


SCRAPE_LEAD_S = 0.25
"""The servers' /metrics are read this long before a round's window, not in it."""


async def measured_window(site, players, seconds, races):
    """The races played out from the window's start: (their racers, the CPU seconds
    each server process, the client and PostgreSQL used meanwhile)."""
    processes, client = [psutil.Process(pid) for pid in site.pids], psutil.Process()
    profiles = profile(site.pids, f"{site.name}-{players}", seconds, PROFILE_DIR)
    before = [cpu_seconds(p) for p in processes], cpu_seconds(client)
    database_before = database_cpu_seconds(DATABASE)
    racers = [racer for result in await asyncio.gather(*races) for racer in result]
    used = (
        [cpu_seconds(p) - was for p, was in zip(processes, before[0], strict=True)],
        cpu_seconds(client) - before[1],
        database_cpu_spent(database_before, DATABASE),
    )
    for profiler in profiles:
        await asyncio.to_thread(profiler.wait)
    return racers, used


async def wind_up(site, stats, racers, watchers, database_url):
    """After a round: every move answered or given up on, the sockets closed, every ack
    checked against the stored moves: (acknowledged moves not stored, frames the
    spectators read)."""
    await drain(stats, deadline=time.perf_counter() + 3)
    unanswered = len(stats.sent) - len(stats.acked) - rejected_count(stats)
    if unanswered > 0:
        stats.errors["unanswered"] += unanswered
    await asyncio.gather(*(racer.close() for racer in racers), return_exceptions=True)
    spectator_frames = sum(watcher.frames for watcher in watchers)
    await asyncio.gather(*(watcher.close() for watcher in watchers), return_exceptions=True)
    stored = stored_moves(database_url, site.move_table, {p for p, _ in stats.acked})
    return len(stats.acked - stored), spectator_frames


async def run_round(site, players, seconds, warmup, database_url, spectators=0):
    seated, watchers = await seat_all(site, players, spectators)
    start = time.perf_counter() + 1.0
    until = start + warmup + seconds
    stats = Stats(window=(start + warmup, until))
    for failure in (result for result in seated if isinstance(result, BaseException)):
        stats.errors[f"seat {type(failure).__name__}"] += 1
    with collector_off(stats.window) as pauses:
        races = [
            asyncio.ensure_future(play_race(site, index, seats, start, until, stats))
            for index, seats in enumerate(seated)
            if not isinstance(seats, BaseException)
        ]
        await asyncio.sleep(max(0.0, stats.window[0] - SCRAPE_LEAD_S - time.perf_counter()))
        scraped = await asyncio.to_thread(site.scrape)
        await asyncio.sleep(max(0.0, stats.window[0] - time.perf_counter()))
        racers, (cpu, client_cpu, database_cpu) = await measured_window(
            site, players, seconds, races
        )
    if scraped is not None:
        scraped = scraped_figures(scraped, await asyncio.to_thread(site.scrape))
    lost, spectator_frames = await wind_up(site, stats, racers, watchers, database_url)
    moves = sum(
        1 for key, sent in stats.sent.items() if key in stats.acked and stats.measured(sent)
    )
    result = figures(site, players, seconds, stats, moves, lost, cpu, client_cpu)
    result["database_cpu_percent"] = round(100 * database_cpu / seconds, 1)
    result["database_cpu_ms_per_move"] = round(1000 * database_cpu / moves, 2) if moves else None
    result["spectators_per_race"] = spectators
    result["client_gc_pauses_by_second"] = [pauses.by_second[n] for n in range(int(seconds))]
    result["client_gc_longest_ms"] = ms(pauses.longest)
    result["metrics"] = scraped
    result["spectator_frames_per_s"] = round(spectator_frames / (warmup + seconds), 1)
    return result


def figures(site, players, seconds, stats, moves, lost, cpu, client_cpu):
    ack_p99 = ms(percentile(stats.acks, 0.99))
    errors = dict(stats.errors)
    return {
        "server": site.name,
        "players": players,
        "seconds": seconds,
        "moves_per_s": round(moves / seconds, 1),
        "ack_ms": {"p50": ms(percentile(stats.acks, 0.5)), "p99": ack_p99},
        "fanout_ms": {
            "p50": ms(percentile(stats.fanout, 0.5)),
            "p99": ms(percentile(stats.fanout, 0.99)),
        },
        "errors": errors,
        "slow_acks_by_second": [stats.slow[n] for n in range(int(seconds))],
        "lost_moves": lost,
        "cpu_percent": [round(100 * used / seconds, 1) for used in cpu],
        "cpu_ms_per_move": round(1000 * sum(cpu) / moves, 2) if moves else None,
        "client_cpu_percent": round(100 * client_cpu / seconds, 1),
        "send_lag_ms_p99": ms(percentile(stats.lags, 0.99)),
        "load_average": round(os.getloadavg()[0], 2),
        "held": bool(moves) and not errors and not lost and ack_p99 <= HELD_P99_MS,
    }


def print_round(number, result):
    ack, fan = result["ack_ms"], result["fanout_ms"]
    errors = ", ".join(f"{k}: {v}" for k, v in result["errors"].items()) or "none"
    print(
        f"round {number} {result['server']:>7} {result['players']:>5} players"
        f"{watched(result)}: "
        f"{result['moves_per_s']:>6} moves/s, ack p50 {ack['p50']} p99 {ack['p99']} ms, "
        f"fan-out p50 {fan['p50']} p99 {fan['p99']} ms, lost {result['lost_moves']}, "
        f"errors {errors}, cpu {result['cpu_percent']} % ({result['cpu_ms_per_move']} ms/move), "
        f"client cpu {result['client_cpu_percent']} %, "
        f"database cpu {result['database_cpu_percent']} % ({result['database_cpu_ms_per_move']}"
        f" ms/move), load {result['load_average']}, "
        f"acks > {HELD_P99_MS} ms by second {result['slow_acks_by_second']}"
        f"{client_paused(result)}{said_by_metrics(result['metrics'])}"
        f"{'' if result['held'] else '  -- NOT HELD'}",
        flush=True,
    )


def client_paused(result):
    """The client's own collections over 5 ms, only when there were any (see `Pauses`)."""
    if not any(result["client_gc_pauses_by_second"]):
        return ""
    return (
        f", the client's collections > 5 ms by second {result['client_gc_pauses_by_second']}"
        f" (longest {result['client_gc_longest_ms']} ms)"
    )


def said_by_metrics(figures):
    if figures is None:
        return ""
    p99 = figures["ack_p99_bucket_ms"]
    return (
        f"; its /metrics: {figures['moves_acknowledged']} moves acknowledged, p99 ack"
        f" {'unknown' if p99 is None else f'<= {p99} ms'}, {figures['moves_per_commit']} moves"
        f" a commit, {figures['sockets_open']} sockets and {figures['races_open']} races open"
    )


def watched(result):
    spectators = result["spectators_per_race"]
    return f" ({spectators} spectators a race)" if spectators else ""


def summary(results):
    """Per server: per N the rounds that held; the most players held by at least half of
    the rounds (a server steps on while any round at N held: one noisy round on a shared
    machine does not end its run). Rounds with spectators are summed up apart."""
    table = {}
    for result in results:
        if result["spectators_per_race"]:
            continue
        table.setdefault(result["server"], {}).setdefault(result["players"], []).append(result)
    out = {}
    for server, by_n in table.items():
        steps = {}
        for n, rounds in sorted(by_n.items()):
            held = sum(r["held"] for r in rounds)
            steps[n] = {
                "rounds_held": f"{held} of {len(rounds)}",
                "ack_ms_p50_median": _median(r["ack_ms"]["p50"] for r in rounds),
                "ack_ms_p99_median": _median(r["ack_ms"]["p99"] for r in rounds),
                "moves_per_s_median": _median(r["moves_per_s"] for r in rounds),
                "cpu_ms_per_move_median": _median(r["cpu_ms_per_move"] or None for r in rounds),
            }
        held = [n for n, rs in by_n.items() if 2 * sum(r["held"] for r in rs) >= len(rs)]
        out[server] = {"players_held": max(held, default=0), "steps": steps}
    for result in results:
        if result["spectators_per_race"]:
            watched = out.setdefault(result["server"], {}).setdefault("with_spectators", [])
            watched.append(
                {
                    "players": result["players"],
                    "spectators_per_race": result["spectators_per_race"],
                    "ack_ms_p99": result["ack_ms"]["p99"],
                    "spectator_frames_per_s": result["spectator_frames_per_s"],
                    "held": result["held"],
                }
            )
    return out


def _median(values):
    present = [value for value in values if value is not None]
    return round(statistics.median(present), 2) if present else None


def ratio(summary, ceiling_commit, measured="project", against="ceiling"):
    """One server against another of the same run (the project against the ceiling, or
    the split placement against the project's): players held (a share of the other's)
    and, per step both measured, the first's ack medians over the other's."""
    first, second = summary.get(measured), summary.get(against)
    if not first or not second or "steps" not in first or "steps" not in second:
        return None
    held = first["players_held"], second["players_held"]
    steps = {}
    for n, mine in first["steps"].items():
        theirs = second["steps"].get(n)
        if theirs is None:
            continue
        steps[n] = {
            f"{p}_ack_ms": [mine[f"ack_ms_{p}_median"], theirs[f"ack_ms_{p}_median"]]
            for p in ("p50", "p99")
        }
        steps[n]["cpu_ms_per_move"] = [
            mine["cpu_ms_per_move_median"],
            theirs["cpu_ms_per_move_median"],
        ]
        for p in ("p50_ack_ms", "p99_ack_ms", "cpu_ms_per_move"):
            a, b = steps[n][p]
            steps[n][f"{p.split('_')[0]}_times_{against}"] = round(a / b, 2) if a and b else None
    figures = {
        "measured": measured,
        "against": against,
        "players_held": list(held),
        f"share_of_{against}": round(held[0] / held[1], 2) if held[1] else None,
        "steps": steps,
    }
    if against == "ceiling":
        figures["ceiling_commit"] = ceiling_commit
    return figures


def print_ratio(figures):
    measured, against = figures["measured"], figures["against"]
    held, share = figures["players_held"], figures[f"share_of_{against}"]
    name = f"ceiling ({figures['ceiling_commit']} commit)" if against == "ceiling" else against
    print(
        f"{measured} / {name}: holds {held[0]} / {held[1]}"
        f" players = {'-' if share is None else f'{100 * share:.0f} %'} of the {against}'s"
    )
    for n, step in figures["steps"].items():
        (p50, c50), (p99, c99) = step["p50_ack_ms"], step["p99_ack_ms"]
        cpu, their_cpu = step["cpu_ms_per_move"]
        print(
            f"  {n:>5} players: ack p50 {p50} vs {c50} ms (x{step[f'p50_times_{against}']}),"
            f" p99 {p99} vs {c99} ms (x{step[f'p99_times_{against}']}),"
            f" server CPU a move {cpu} vs {their_cpu} ms (x{step[f'cpu_times_{against}']}),"
            " medians of the rounds"
        )


async def bench(args, log_dir):
    database_url = fresh_database(DATABASE)
    sites = [SITES[name](database_url, log_dir) for name in args.servers]
    results, stepping, stopped = [], {site.name for site in sites}, None
    began = time.monotonic()
    try:
        for players in args.steps:
            if time.monotonic() - began > args.budget_s:
                stopped = f"time budget ({args.budget_s:.0f} s) spent before {players} players"
                break
            for number in range(1, args.rounds + 1):
                for site in sites:
                    if site.name not in stepping:
                        continue
                    result = await run_round(site, players, args.seconds, args.warmup, database_url)
                    result["round"] = number
                    results.append(result)
                    print_round(number, result)
                    await asyncio.sleep(2)  # closed sockets settle before the next round
            for site in sites:
                rounds = [
                    r for r in results if r["server"] == site.name and r["players"] == players
                ]
                if rounds and not any(r["held"] for r in rounds):
                    stepping.discard(site.name)
            if not stepping:
                break
        for number in range(1, args.rounds + 1) if args.spectators else ():
            for site in sites:
                result = await run_round(
                    site,
                    args.watched_players,
                    args.seconds,
                    args.warmup,
                    database_url,
                    spectators=args.spectators,
                )
                result["round"] = number
                results.append(result)
                print_round(number, result)
                await asyncio.sleep(2)
    finally:
        for site in sites:
            site.stop()
    return results, stopped


def _plot_server(axis, server, value, rounds):
    """One server's rounds without spectators as dots, a line through each step's median."""
    rounds = [
        r for r in rounds if r["server"] == server and value(r) and not r["spectators_per_race"]
    ]
    steps = sorted({r["players"] for r in rounds})
    medians = [_median(value(r) for r in rounds if r["players"] == n) for n in steps]
    (line,) = axis.plot(steps, medians, "-", label=f"{server} (median of its rounds)")
    players = [r["players"] for r in rounds]
    axis.plot(players, [value(r) for r in rounds], "o", color=line.get_color(), alpha=0.6)


def chart(report):
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    panels = (
        ("ack p99, ms", lambda r: r["ack_ms"]["p99"]),
        ("moves/s", lambda r: r["moves_per_s"]),
        ("server CPU per move, ms", lambda r: r["cpu_ms_per_move"]),
    )
    figure, axes = plt.subplots(1, len(panels), figsize=(13, 4))
    for axis, (label, value) in zip(axes, panels, strict=True):
        for server in report["summary"]:
            _plot_server(axis, server, value, report["rounds"])
        axis.set_xlabel("players (one move a second each)")
        axis.set_title(label)
        axis.grid(alpha=0.3)
    axes[0].axhline(
        HELD_P99_MS, color="grey", linestyle="--", linewidth=1, label="held: p99 <= 100 ms"
    )
    axes[0].set_yscale("log")
    axes[0].legend(loc="upper left", fontsize="small")
    figure.suptitle(
        f"Open-loop load, 2 processes each, races of 4: every round a dot"
        f" (load average {report['load_average']['after']})"
    )
    figure.tight_layout()
    figure.savefig(CHART)


EXAMPLES = """\
the cases of issue #21 (each round on fresh sockets; project and ceiling alternate):
  the goal, 1,400 players, two rounds of 20 s each:
    .venv/bin/python bench/openloop.py --steps 1400 --rounds 2 --seconds 20
  every race split over both processes (a failover, a replica coming back), beside
  each race on one process, in alternating rounds:
    .venv/bin/python bench/openloop.py --servers project,split --steps 600,1000 --rounds 2
  where a process's CPU goes (py-spy in the venv), the project alone:
    .venv/bin/python bench/openloop.py --servers project --steps 1000 --seconds 20 \\
        --profile /tmp/spy
CPU per move (server CPU seconds / moves acknowledged) is the figure to compare on a
shared machine; latencies need a quiet one. BENCH_DATABASE_SUFFIX names the bench's
database apart from another engineer's on the same PostgreSQL.
"""


def print_summary(summary):
    """Per server: the most players held and in how many rounds there, then its rounds
    with spectators."""
    for server, figures_ in summary.items():
        held = figures_.get("players_held", 0)
        rounds = figures_.get("steps", {}).get(held, {}).get("rounds_held", "no")
        print(f"{server:>7}: holds {held} players ({rounds} rounds held there)")
        for watched in figures_.get("with_spectators", []):
            print(
                f"{server:>7}: {watched['players']} players with {watched['spectators_per_race']}"
                f" spectators a race: ack p99 {watched['ack_ms_p99']} ms"
                f"{'' if watched['held'] else ' -- NOT HELD'}"
            )


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--steps",
        type=lambda text: [int(n) - int(n) % RACE_SIZE for n in text.split(",")],
        default=[600, 1000, 1400, 1800],
        help="player counts (rounded down to whole races of 4)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="per step and server, alternating")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured per round")
    parser.add_argument("--warmup", type=float, default=2.0, help="not measured, per round")
    parser.add_argument("--budget-s", type=float, default=900.0, help="start no step after this")
    parser.add_argument(
        "--servers",
        type=lambda text: text.split(","),
        default=["project", "ceiling", "split"],
        help="which of project,ceiling,split to measure (split: the project, every race"
        " over both processes)",
    )
    parser.add_argument(
        "--placement",
        choices=("room", "split"),
        default=ProjectSite.placement,
        help="project: each race on one process (as the entrance routes) or split over both",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=50,
        help="per race, in the rounds with spectators (0: none)",
    )
    parser.add_argument(
        "--watched-players", type=int, default=48, help="players in the rounds with spectators"
    )
    parser.add_argument(
        "--ceiling-commit",
        choices=("group", "one"),
        default=CeilingSite.commit,
        help="the ceiling's commits: group commit as the project's, or one per statement",
    )
    parser.add_argument("--log-dir", help="keep the servers' logs here")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="py-spy (pip install py-spy) samples of every server process over every"
        " measured window, as collapsed stacks in DIR",
    )
    args = parser.parse_args()
    global PROFILE_DIR
    PROFILE_DIR = args.profile
    if PROFILE_DIR:
        Path(PROFILE_DIR).mkdir(parents=True, exist_ok=True)
    ProjectSite.placement = args.placement
    CeilingSite.commit = args.ceiling_commit
    problem = services_missing()
    if problem:
        print(f"open-loop bench skipped: {problem}")
        return
    if args.log_dir:
        Path(args.log_dir).mkdir(parents=True, exist_ok=True)
    load_before = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory() as scratch:
        results, stopped = asyncio.run(bench(args, args.log_dir or scratch))
    report = {
        "processes": 2,
        "race_size": RACE_SIZE,
        "moves_per_player_per_s": 1,
        "held_when": f"p99 ack <= {HELD_P99_MS} ms, no error, no lost move",
        "seconds_per_round": args.seconds,
        "stopped": stopped,
        "summary": summary(results),
        "ceiling_commit": args.ceiling_commit,
        "rounds": results,
        "load_average": {"before": load_before, "after": round(os.getloadavg()[0], 2)},
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    print_summary(report["summary"])
    report["ratio"] = ratio(report["summary"], args.ceiling_commit)
    report["split_ratio"] = ratio(report["summary"], args.ceiling_commit, "split", "project")
    for figures_ in (report["ratio"], report["split_ratio"]):
        if figures_:
            print_ratio(figures_)
    if stopped:
        print(f"stopped: {stopped}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    chart(report)
    print(f"wrote {RESULTS.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
