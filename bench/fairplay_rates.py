"""Fair-play checks: how often they flag a person, and how often a paced solver bot.

    python bench/fairplay_rates.py [--humans 4000] [--bots 500] [--deals 10] [--seed 1] [--event]

Generates won games and runs the server's own checks on them (`fairplay.tempo` and
`fairplay.reasons`, with the settings' defaults), then prints, per population, the
share flagged, the share each reason flags and the time of a win (the median, and
the fastest 1 %); then how often the verified #1's pace check holds a person's win
(`verify.is_outlier`: a win far faster than the same person's last ones) and how
often a verification deal at their own pace releases it; writes
bench/results/fairplay_rates.json.

The games are won lines on numbered deals: the solver's own line (what a solver bot
plays), and lines a person could find — at each step a move that keeps the deal
winnable, chosen at random ("wandering") or the first in reading order
("systematic"), both of which still win while making moves the solver would not.

People (a model, not a measurement of real players: docs/fair-play.md says why
these numbers): each player has a median think time (lognormal around 1.5 s; one
in ten a fast player around 0.75 s) and a spread (sigma 0.35-0.9 of the log); each
move's think time is lognormal around that median, floored at 0.3 s (two clicks),
with an occasional long pause (2-6 % of moves, 3-20 s); the first move follows a
look at the table (lognormal around 4 s, 2 s for a fast player); up to 5 % of moves
are mistakes taken back by an undo about a second later.

Bots play the solver's line (a bot that knows the deal and runs the project's
solver) or a line of their own (another solver: the wandering lines): steady 0.45 s
a move (the attack in the issue), jittered 20 % or 50 % (with or without a 3 s look
first), lognormal like a person after a 3 s look, a peeker that looks under cards
with undos, and one with a person's whole clock. A bot with its own line and a
person's clock is a person to every check, and the bench says so.

`--event` adds the event's populations (written to fairplay_rates_event.json, the
daily's beside them from the same run): in an event the peeks of the event's other
entries from the same address under the same deal count as the entry's own
(`fairplay.scouted_peeks`). So: a person whose household plays the same deal from
the same address (the false flags that rule costs), and a person's clock after a
spare entry looked under the deal's cards N times (a pair played and taken back),
from N = 6 to the attack's 92 looks (184 frames: every card seen); and the paced
bots, judged as in an event.
"""

import argparse
import dataclasses
import json
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "halfmoon_site.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from game.engine import WON, Deal, Game, format_code  # noqa: E402
from game.engine.solver import WINNABLE, solve  # noqa: E402
from game.models import Move  # noqa: E402
from game.results import fairplay, verify  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "fairplay_rates.json"
EVENT_RESULTS = ROOT / "bench" / "results" / "fairplay_rates_event.json"
STEP_BUDGET_S = 0.3
"""Solver budget to check that a person's next move keeps the deal winnable."""


@dataclass
class Line:
    """A won line on a deal, with the legal moves at each step (for mistakes)."""

    moves: list
    options: list


@dataclass
class Board:
    solver: Line
    people: list


def person_line(deal, rng, systematic):
    """A won line a person could play: each move keeps the deal winnable."""
    game, moves, options = Game(deal), [], []
    while game.status != WON:
        legal = game.legal_moves()
        order = legal if systematic else rng.sample(legal, len(legal))
        for move in order:
            game.remove(move)
            if game.status == WON or solve(game, max_seconds=STEP_BUDGET_S).verdict == WINNABLE:
                moves.append(move)
                options.append(legal)
                break
            game.undo()
        else:
            return None  # the budget ran out on every move: try another deal
    return Line(moves, options)


def boards(count, rng):
    """`count` winnable numbered deals, each with the solver's line and two people's."""
    found = []
    while len(found) < count:
        deal = Deal.from_code(format_code(rng.randrange(26**7)))
        result = solve(deal, max_seconds=1.0)
        if result.verdict != WINNABLE:
            continue
        people = [person_line(deal, rng, systematic) for systematic in (False, True)]
        if None in people:
            continue
        found.append(Board(_with_options(deal, result.moves), people))
    return found


def _with_options(deal, moves):
    """`moves` as a Line, with the legal moves before each of them."""
    game, options = Game(deal), []
    for move in moves:
        options.append(game.legal_moves())
        game.remove(move)
    return Line(list(moves), options)


def lognormal(rng, median, sigma):
    return median * math.exp(sigma * rng.gauss(0, 1))


@dataclass
class Clock:
    """When one player moves: a first look, then think times, pauses and mistakes."""

    first: object
    think: object
    mistakes: float = 0.0

    def play(self, line, rng):
        """(seconds since the start, kind, slots) of every stored action, and the win's time."""
        at, played = self.first(rng), []
        for move, legal in zip(line.moves, line.options, strict=True):
            if rng.random() < self.mistakes:
                played.append((at, Move.MOVE, list(rng.choice(legal))))
                at += lognormal(rng, 0.9, 0.4)
                played.append((at, Move.UNDO, []))
                at += self.think(rng)
            played.append((at, Move.MOVE, list(move)))
            at += self.think(rng)
        return played, played[-1][0]


def person(rng):
    """A person's clock, drawn for one player."""
    fast = rng.random() < 0.1
    median = lognormal(rng, 0.75 if fast else 1.5, 0.25)
    sigma = rng.uniform(0.35, 0.6) if fast else rng.uniform(0.4, 0.9)
    pauses = rng.uniform(0.01, 0.03) if fast else rng.uniform(0.02, 0.06)

    def think(rng):
        gap = max(0.3, lognormal(rng, median, sigma))
        return gap + (rng.uniform(3, 20) if rng.random() < pauses else 0.0)

    look = 2.0 if fast else 4.0
    return Clock(lambda rng: max(0.6, lognormal(rng, look, 0.5)), think, rng.uniform(0, 0.05))


def paced(pace, jitter=0.0, first=None):
    """A bot's clock: `pace` seconds a move, give or take `jitter` of it, uniformly."""

    def think(rng):
        return pace * rng.uniform(1 - jitter, 1 + jitter)

    return lambda rng: Clock(first or think, think)


def humanlike_bot(rng):
    """A bot that draws its think times like a person (sigma 0.4), after a 3 s look."""
    return Clock(lambda rng: 3.0, lambda rng: max(0.3, lognormal(rng, 1.0, 0.4)))


def peeker(rng):
    """A bot that looks under cards: a third of its moves taken back at once."""
    clock = paced(0.6, 0.3)(rng)
    clock.mistakes = 0.33
    return clock


BOTS = {
    "steady 0.45 s": paced(0.45),
    "0.45 s ± 20 %": paced(0.45, 0.2),
    "0.45 s ± 50 %": paced(0.45, 0.5),
    "0.45 s ± 50 %, 3 s look": paced(0.45, 0.5, first=lambda rng: 3.0),
    "lognormal, 3 s look": humanlike_bot,
    "peeking with undos": peeker,
    "a person's clock": person,
}
POPULATIONS = {
    # name: (clock maker, which line, how many: "humans" or "bots")
    "people, wandering lines": (person, "wandering", "humans"),
    "people, systematic lines": (person, "systematic", "humans"),
    **{f"bot, solver's line: {name}": (clock, "solver", "bots") for name, clock in BOTS.items()},
    **{f"bot, own line: {name}": (clock, "wandering", "bots") for name, clock in BOTS.items()},
}


def household(board, rng):
    """The kinds of another person's game of the same deal from the same address."""
    played, _ = person(rng).play(board.people[True], rng)
    return [kind for _, kind, _ in played]


def spare(looks):
    """A spare entry that looked under the deal's cards `looks` times, then left."""
    return lambda board, rng: [Move.MOVE, Move.UNDO] * looks


EVENT_POPULATIONS = {
    # name: (clock maker, which line, how many, the same address's other game on the deal)
    "event: people, alone": (person, "wandering", "humans", None),
    "event: people, a household's second player": (person, "wandering", "humans", household),
    **{
        f"event: a person's clock after a spare entry's {looks} looks": (
            person,
            "wandering",
            "bots",
            spare(looks),
        )
        for looks in (6, 10, 11, 20, 92)
    },
    **{
        f"event: bot, solver's line: {name}": (clock, "solver", "bots", None)
        for name, clock in BOTS.items()
    },
}


def rates(name, boards_found, count, rng, populations=POPULATIONS):
    """The share of `count` games of a population flagged, overall and per reason."""
    maker, which, _, *sibling = populations[name]
    sibling = sibling[0] if sibling else None
    tally, flagged, wins = {}, 0, []
    for _ in range(count):
        board = rng.choice(boards_found)
        line = board.solver if which == "solver" else board.people[which == "systematic"]
        played, win_s = maker(rng).play(line, rng)
        tempo = fairplay.tempo(played, win_s, board.solver.moves)
        if sibling is not None:  # the event's rule: the same address's peeks count together
            scouted = fairplay.peek_count(sibling(board, rng))
            tempo = dataclasses.replace(tempo, peeks=tempo.peeks + scouted)
        found = fairplay.reasons(tempo)
        flagged += bool(found)
        wins.append(win_s)
        for reason in found:
            tally[reason] = tally.get(reason, 0) + 1
    return {
        "games": count,
        "flagged": flagged / count,
        "median_win_s": statistics.median(wins),
        "fastest_1pct_win_s": sorted(wins)[len(wins) // 100],
        "by_reason": _shares(tally, count),
    }


def pace_holds(boards_found, count, rng):
    """How often the verified #1's pace check (game/results/verify.py) holds a person's win:
    each of `count` people (one clock each) wins HALFMOON_VERIFY_HISTORY games, then
    one more, held if under HALFMOON_VERIFY_FRACTION of the median of the others; and
    of those held, the share a verification deal at their own pace releases."""
    held = released = 0
    games = settings.HALFMOON_VERIFY_HISTORY + 1
    for _ in range(count):
        clock = person(rng)
        wins = [_person_win(clock, boards_found, rng) for _ in range(games)]
        (last_s, last_moves), history = wins[-1], [win_s for win_s, _ in wins[-2::-1]]
        if verify.is_outlier(last_s, history):
            held += 1
            again_s, again_moves = _person_win(clock, boards_found, rng)
            released += verify.same_pace(again_s, again_moves, last_s, last_moves)
    return {"people": count, "held": held / count, "released": released / held if held else None}


def _person_win(clock, boards_found, rng):
    """A person's win on a random board and line: (its time in s, its moves)."""
    board = rng.choice(boards_found)
    line = board.people[rng.random() < 0.5]
    _, win_s = clock.play(line, rng)
    return win_s, len(line.moves)


def _shares(tally, count):
    return {reason: tally[reason] / count for reason in sorted(tally)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--humans", type=int, default=4000, help="games per population of people")
    parser.add_argument("--bots", type=int, default=500, help="games per population of bots")
    parser.add_argument("--deals", type=int, default=10, help="deals the games are won on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--event", action="store_true", help="the event's populations too")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    found = boards(args.deals, rng)
    print(f"{len(found)} deals and their lines in {time.perf_counter() - started:.0f} s")
    results = _run(POPULATIONS, args, found, rng)
    holds = _pace_check(found, args, rng)
    path = RESULTS
    if args.event:
        results = {"daily": results, "event": _run(EVENT_POPULATIONS, args, found, rng)}
        path = EVENT_RESULTS
    path.parent.mkdir(exist_ok=True)
    everything = {"args": vars(args), "populations": results, "pace_check": holds}
    path.write_text(json.dumps(everything, indent=2) + "\n")


def _pace_check(found, args, rng):
    """How many modelled people the verified #1's pace check holds, printed."""
    holds = pace_holds(found, args.humans, rng)
    released = "—" if holds["released"] is None else f"{holds['released']:.0%}"
    print(
        f"{'people, pace check (verified #1)':56} {holds['held']:7.2%} held"
        f"  (a verification deal at their own pace releases {released})"
    )
    return holds


def _run(populations, args, found, rng):
    """Every population's `rates`, printed as they come."""
    results = {}
    for name, (_, _, kind, *_) in populations.items():
        count = args.humans if kind == "humans" else args.bots
        results[name] = rate = rates(name, found, count, rng, populations)
        shown = ", ".join(f"{r} {s:.1%}" for r, s in rate["by_reason"].items())
        win = f"win {rate['median_win_s']:4.0f} s (1 %: {rate['fastest_1pct_win_s']:3.0f} s)"
        print(f"{name:56} {rate['flagged']:7.2%} flagged  {win}  ({shown or 'none'})")
    return results


if __name__ == "__main__":
    main()
