"""Engine speed: remove+undo pairs/s, legal_moves()/s mid-game, replay of a won game.

Prints the figures and writes them to bench/results/engine.json.
"""

import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.engine import Deal, Game, replay  # noqa: E402
from game.engine.examples import RULE_BOOK_WIN as WINNING_LINE  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "engine.json"


def best_rate(run, count, repeats=5):
    """Operations per second of the fastest of ``repeats`` timed runs."""
    best = min(_timed(run, count) for _ in range(repeats))
    return count / best


def _timed(run, count):
    start = time.perf_counter()
    run(count)
    return time.perf_counter() - start


def mid_game():
    game = Game(Deal.from_code("HM1-N-AAAAAAB"))
    for move in WINNING_LINE[:20]:
        game.remove(move)
    return game


def remove_undo(count):
    game = mid_game()
    move = game.legal_moves()[0]
    remove, undo = game.remove, game.undo
    for _ in range(count):
        remove(move)
        undo()


def legal_moves(count):
    game = mid_game()
    call = game.legal_moves
    for _ in range(count):
        call()


def replays(count):
    deal = Deal.from_code("HM1-N-AAAAAAB")
    for _ in range(count):
        replay(deal, WINNING_LINE)


def main():
    figures = {
        "remove_undo_pairs_per_s": round(best_rate(remove_undo, 200_000)),
        "legal_moves_per_s": round(best_rate(legal_moves, 200_000)),
        "mid_game_legal_moves": len(mid_game().legal_moves()),
        "replay_48_moves_ms": round(1000 / best_rate(replays, 2_000), 4),
        "deal_from_code_ms": round(
            1000 / best_rate(lambda n: [Deal.from_number(i) for i in range(n)], 2_000), 4
        ),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    targets = {"remove_undo_pairs_per_s": 300_000, "legal_moves_per_s": 100_000}
    for name, value in figures.items():
        mark = ""
        if name in targets:
            mark = "  ok" if value >= targets[name] else f"  BELOW target {targets[name]:,}"
        if name == "replay_48_moves_ms":
            mark = "  ok" if value < 1 else "  ABOVE target 1 ms"
        print(
            f"{name:28} {value:>12,}{mark}"
            if isinstance(value, int)
            else f"{name:28} {value:>12}{mark}"
        )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
