"""
A game's history rebuilt from its stored moves: the position after every row (a
replay's steps), and a recorded game's progress over time (the timeline a ghost races).

Below the replays and the ghost frame alike, so both read one rebuild: the deal and
the entry's stored rows (undos included, each with its time; game/results/move_log.py)
through the engine,
exactly as `games.replay` rebuilds a game in play.
"""

from game.engine import Game
from game.engine.scheme import scheme
from game.models import Entry
from game.results import games, move_log, standings

DEAL, END, LINE = "deal", "end", "line"
"""The kinds of the first step (the table as dealt), of a last step that is no
move (the game ended by a resignation, the time limit or a count-out), and of a
step of a winning line the after-game analysis shows (a move no one played)."""


def entry_steps(race, entry, log, tables=False):
    """The entry's game after each stored row of `log` (seq order), from the deal on.

    Each step: `seq`, `kind` (`deal`, `move`, `undo`, `end`), `changed` (the slots
    the row moved), `at_ms` (since the race's start), `score`, `moves`,
    `cards_left`, `status`, `heights`; with `tables`, also `slots` (each slot's
    count and top card)."""
    game = Game(race.deal.engine_deal())
    steps = [_step(game, 0, DEAL, [], 0, game.status, tables)]
    for row in log:
        changed = list(games.apply(game, row.kind, row.slots).slots)
        at = standings.since_start(race, row.at)
        steps.append(_step(game, row.seq, row.kind, changed, at, game.status, tables))
    if entry.status != game.status and entry.status in Entry.DONE:
        at = standings.since_start(race, entry.finished_at or race.finished_at)
        steps.append(_step(game, entry.seq, END, [], at, entry.status, tables))
    return steps


def timeline(entry, heights=True):
    """A recorded game as a ghost races it: `[at_ms, score, moves, cards_left, heights,
    status]` after the deal and after each stored move, undo and end (`entry_steps`
    without tables: progress only, never a card). Without `heights`, each point's
    heights are None: step by step they trace which piles each move took from."""
    log = move_log.rows(entry)
    return [
        [
            step["at_ms"],
            step["score"],
            step["moves"],
            step["cards_left"],
            step["heights"] if heights else None,
            step["status"],
        ]
        for step in entry_steps(entry.race, entry, log)
    ]


def line_steps(deal_row, played, line):
    """The tables along `line`, a winning line played on from the position after the
    moves `played` (game/replays/analysis.py): each step as in `entry_steps`, with `slots`,
    numbered from 1, at no time (no one played them)."""
    game = Game(deal_row.engine_deal())
    for move in played:
        game.remove(move)
    steps = []
    for number, move in enumerate(line, start=1):
        changed = list(game.remove(move).slots)
        steps.append(_step(game, number, LINE, changed, 0, game.status, tables=True))
    return steps


def _step(game, seq, kind, changed, at_ms, status, tables):
    step = {
        "seq": seq,
        "kind": kind,
        "changed": changed,
        "at_ms": at_ms or 0,
        "score": game.score,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": status,
        "heights": games.heights(game),
    }
    if tables:
        step["slots"] = [view._asdict() for view in scheme(game)]
    return step
