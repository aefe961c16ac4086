"""Solver: verdicts and solve times over the first numbered deals, one budget per deal.

    python bench/solver.py [--count 1000] [--seconds 1] [--retry-seconds 30] [--workers N]

Solves deals 0 … count-1 with ``--seconds`` CPU seconds each, spread over
``--workers`` processes (default: all cores). Times are each deal's own CPU
time (the solving thread's), so they do not grow when deals run side by side.
Every winning line is replayed by the engine. The deals left unknown are then
given ``--retry-seconds`` each, as ``manage.py analyse_deals --retry-unknown``
would. Prints the shares, time percentiles and nodes/s, and writes
bench/results/solver.json and a histogram of solve times,
bench/results/solver_times.svg. Target: at least 99% of deals decided.
"""

import argparse
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.engine import WON, Deal, replay  # noqa: E402
from game.engine.solver import (  # noqa: E402
    NOT_WINNABLE,
    SOLVER_VERSION,
    UNKNOWN,
    WINNABLE,
    solve,
)

RESULTS = Path(__file__).parent / "results"
TARGET_DECIDED = 0.99


def main():
    options = _options()
    started = time.monotonic()
    results = _solve_all(range(options.count), options.seconds, options.workers)
    wall = time.monotonic() - started
    unknown = [number for number, result in results.items() if result["verdict"] == UNKNOWN]
    retried = _solve_all(unknown, options.retry_seconds, options.workers) if unknown else {}
    figures = _figures(results, retried, options, wall)
    _print(figures)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "solver.json").write_text(json.dumps(figures, indent=2) + "\n")
    times = [result["seconds"] for result in results.values()]
    (RESULTS / "solver_times.svg").write_text(histogram_svg(times, options.seconds))
    print(f"written to {RESULTS / 'solver.json'} and {RESULTS / 'solver_times.svg'}")


def _options():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="deals 0 … count-1")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per deal")
    parser.add_argument("--retry-seconds", type=float, default=30.0, help="for unknown deals")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    return parser.parse_args()


def solve_number(job):
    """One deal, in a worker: its verdict, nodes and CPU seconds; the line checked here."""
    number, seconds = job
    deal = Deal.from_number(number)
    result = solve(deal, max_seconds=seconds)
    if result.verdict == WINNABLE:
        game = replay(deal, result.moves)
        assert (game.status, game.score, game.moves) == (WON, 520, 48), deal.code
    return number, {"verdict": result.verdict, "nodes": result.nodes, "seconds": result.seconds}


def _solve_all(numbers, seconds, workers):
    numbers = list(numbers)
    progress = _Progress(len(numbers), f"{seconds:g} s budget")
    results = {}
    with multiprocessing.Pool(workers) as pool:
        jobs = [(number, seconds) for number in numbers]
        for number, result in pool.imap_unordered(solve_number, jobs):
            results[number] = result
            progress.update(result["verdict"])
    progress.close()
    return dict(sorted(results.items()))


class _Progress:
    def __init__(self, total, what):
        self.total, self.what, self.tally = total, what, Counter()
        self.live = sys.stderr.isatty()
        self.started = time.monotonic()

    def update(self, verdict):
        self.tally[verdict] += 1
        done = sum(self.tally.values())
        if self.live or done == self.total or done % max(self.total // 10, 1) == 0:
            rate = done / max(time.monotonic() - self.started, 1e-9)
            line = (
                f"{done}/{self.total} deals ({self.what}): winnable {self.tally[WINNABLE]}, "
                f"not {self.tally[NOT_WINNABLE]}, unknown {self.tally[UNKNOWN]}, "
                f"{rate:.1f} deals/s"
            )
            sys.stderr.write(("\r" + line + "\x1b[K") if self.live else line + "\n")
            sys.stderr.flush()

    def close(self):
        if self.live and self.total:
            sys.stderr.write("\n")


def _figures(results, retried, options, wall):
    count = len(results)
    verdicts = Counter(result["verdict"] for result in results.values())
    times = sorted(result["seconds"] for result in results.values())
    nodes = sum(result["nodes"] for result in results.values())
    still_unknown = [n for n, result in retried.items() if result["verdict"] == UNKNOWN]
    decided = 1 - verdicts[UNKNOWN] / count
    return {
        "deals": count,
        "budget_cpu_seconds": options.seconds,
        "workers": options.workers,
        "winnable": verdicts[WINNABLE] / count,
        "not_winnable": verdicts[NOT_WINNABLE] / count,
        "unknown": verdicts[UNKNOWN] / count,
        "decided": decided,
        "target_decided": TARGET_DECIDED,
        "target_met": decided >= TARGET_DECIDED,
        "cpu_seconds": {
            "median": _round(statistics.median(times)),
            "p90": _round(_percentile(times, 0.90)),
            "p99": _round(_percentile(times, 0.99)),
            "max": _round(times[-1]),
            "mean": _round(statistics.fmean(times)),
            "total": round(sum(times), 2),
        },
        "nodes_per_cpu_second": round(nodes / sum(times)),
        "nodes_median": statistics.median(result["nodes"] for result in results.values()),
        "wall_seconds": round(wall, 1),
        "unknown_deals": [n for n, result in results.items() if result["verdict"] == UNKNOWN],
        "retry": {
            "budget_cpu_seconds": options.retry_seconds,
            "verdicts": {str(n): result["verdict"] for n, result in retried.items()},
            "cpu_seconds": {str(n): _round(result["seconds"]) for n, result in retried.items()},
            "decided": len(retried) - len(still_unknown),
            "still_unknown": still_unknown,
        },
        "solver_version": SOLVER_VERSION,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
    }


def _percentile(ordered, share):
    """Nearest-rank percentile of an ordered list."""
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def _round(seconds):
    return round(seconds, 4)


def _print(figures):
    times = figures["cpu_seconds"]
    retry = figures["retry"]
    print(
        f"{figures['deals']} deals, {figures['budget_cpu_seconds']:g} CPU s each: "
        f"winnable {figures['winnable']:.1%}, not winnable {figures['not_winnable']:.1%}, "
        f"unknown {figures['unknown']:.1%} "
        f"({'target met' if figures['target_met'] else 'BELOW target'}: "
        f"{figures['target_decided']:.0%} decided)"
    )
    print(
        f"CPU s per deal: median {times['median']}, p90 {times['p90']}, p99 {times['p99']}, "
        f"max {times['max']}; {figures['nodes_per_cpu_second']:,} nodes/s"
    )
    if retry["verdicts"]:
        print(
            f"retry at {retry['budget_cpu_seconds']:g} CPU s: {retry['decided']} of "
            f"{len(retry['verdicts'])} unknown deals decided {retry['verdicts']}"
        )


def histogram_svg(times, budget, bins_per_decade=5, width=640, height=300):
    """A log-scale histogram of solve times as a small standalone SVG."""
    low = math.floor(math.log10(max(min(times), 1e-4)))
    high = math.ceil(math.log10(max(max(times), budget)))
    edges = [10 ** (low + i / bins_per_decade) for i in range((high - low) * bins_per_decade + 1)]
    counts = [0] * (len(edges) - 1)
    for seconds in times:
        position = (math.log10(max(seconds, edges[0])) - low) * bins_per_decade
        counts[min(int(position), len(counts) - 1)] += 1
    left, bottom, top, right = 50, height - 40, 30, width - 20
    bar = (right - left) / len(counts)
    scale = (bottom - top) / max(counts)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<text x="{left}" y="18" font-size="13">Solve time per deal, CPU seconds '
        f"({len(times)} deals, log scale)</text>",
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="black"/>',
    ]
    for i, count in enumerate(counts):
        x, h = left + i * bar, count * scale
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{bottom - h:.1f}" width="{bar - 2:.1f}" '
            f'height="{h:.1f}" fill="#4a7ab5"><title>{count}</title></rect>'
        )
    for decade in range(low, high + 1):
        x = left + (decade - low) * bins_per_decade * bar
        parts.append(f'<text x="{x:.1f}" y="{bottom + 15}" text-anchor="middle">1e{decade}</text>')
    x = left + (math.log10(budget) - low) * bins_per_decade * bar
    parts.append(
        f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="#c0392b" '
        f'stroke-dasharray="4 3"/><text x="{x - 4:.1f}" y="{top + 10}" text-anchor="end" '
        f'fill="#c0392b">budget {budget:g} s</text>'
    )
    parts.append(f'<text x="12" y="{top + 10}">{max(counts)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    main()
