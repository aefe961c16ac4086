"""
The after-game analysis of a replay: the deal's verdict, the move after which the
game stopped being winnable, and one winning line from the last winnable position.

The rule book says the app has no solver and no hint, and does not say whether a
deal can be won. So nothing asks for this unless the player turned "After-game
analysis" on (a setting of their browser, off by default), and it speaks only of
games that are over, in races that are over (no hint to anyone still playing the
same deal), to whoever may watch the replay (`watch.visible`), on a deal whose
code they may know (`secrecy.shown_code`: a winning line is the deal's solution, so
today's daily deal waits for its day to end, even for its own player).

Along one line of moves winnability can be lost but never regained, so the
winnable positions of the game's final line are a prefix of it, found by
bisection (`verdicts.settle`). A won line needs no solver: it is its own proof.
Each position's verdict is stored per deal and move prefix (`PositionVerdict`),
read by every process, so two players with the same line, or the same question
asked again anywhere, cost one solve. The solving runs in the solver pool
(`game/solver/pool.py`), one process per question (`game/solver/claims.py`); until its
verdicts are stored the answer is None ("computing").

On the replay's timeline (undos included) the move that lost the game is the
last time the final line's losing move was played: every table after it extends
a lost position; the table just before it is the last winnable position of the
line, where the winning line starts.
"""

import hashlib
import json
from functools import partial

from django.conf import settings

from game.base.errors import GameError
from game.deals import secrecy
from game.engine.solver import NOT_WINNABLE, SOLVER_VERSION, UNKNOWN, WINNABLE
from game.models import Entry, Move, PositionVerdict, Race
from game.race import history
from game.replays import watch
from game.results import move_log
from game.solver import claims, pool, verdicts


def analysis_of(room, player, viewer_key):
    """The analysis of player `player`'s game in `room`, as the holder of `viewer_key`
    may have it; None while the solver works on it. GameError: `not_found` (no
    replay they may watch), `still_playing` (the race is not over), `daily_locked`
    (today's daily deal). A race still running is refused first: anyone with its
    room sees who plays in it, so that says nothing the race page does not."""
    entry = _analysable(room, player, viewer_key)
    deal = entry.race.deal
    log = move_log.rows(entry)
    steps = history.entry_steps(entry.race, entry, log)
    line = _final_line(steps)
    won = steps[-1]["status"] == Entry.WON
    known = _known(deal, line)
    answer = _answer(deal, steps, line, known, won)
    if answer is None and _solve(deal, line, known):
        answer = _answer(deal, steps, line, _known(deal, line), won)
    return answer


def _analysable(room, player, viewer_key):
    entry = watch.find(room, player)
    if entry is not None and entry.race.status != Race.FINISHED:
        raise GameError("still_playing", "analysed once the race is over: no hint during play")
    if entry is None or not watch.visible(entry.race, entry, viewer_key):
        raise GameError("not_found", "no replay of this player in this race to watch")
    if secrecy.shown_code(entry.race) is None:
        raise GameError("daily_locked", "today's daily deal is analysed once its day is over")
    return entry


def _final_line(steps):
    """The moves on the table when the game ended, from its replay steps (an undo
    takes back the last one)."""
    line = []
    for step in steps[1:]:
        if step["kind"] == Move.MOVE:
            line.append(tuple(step["changed"]))
        elif step["kind"] == Move.UNDO:
            line.pop()
    return line


def _answer(deal, steps, line, known, won):
    """The analysis from the verdicts `known`, or None while one it needs is missing."""

    def verdict_at(moves):
        if won:
            return WINNABLE  # the game's own line wins from every position along it
        if moves not in known:
            raise verdicts.Unsolved(moves)
        return known[moves]["verdict"]

    try:
        verdict, kept = verdicts.settle(len(line), verdict_at)
    except verdicts.Unsolved:
        return None
    answer = {"verdict": verdict, "moves": len(line), "winnable_until": kept}
    if kept is None:
        return {**answer, "lost_step": None, "from_step": None, "line": []}
    start = max(index for index, step in enumerate(steps) if step["moves"] <= kept)
    winning = [] if won else known[kept]["line"]
    return {
        **answer,
        "lost_step": start + 1 if kept < len(line) else None,
        "from_step": start,
        "line": history.line_steps(deal, line[:kept], winning),
    }


def _prefix(moves):
    """The digest a position is stored under: the moves that lead to it."""
    text = json.dumps([list(move) for move in moves], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _known(deal, line):
    """The stored verdicts of the positions along `line`: {moves: {"verdict", "line"}}.

    The deal's own analysis (the admin's, `analyse_deals`) stands for the empty
    prefix; an `unknown` counts only if it had at least today's budget."""
    budget = settings.HALFMOON_ANALYSIS_SOLVE_S
    known = {}
    if deal.verdict in (WINNABLE, NOT_WINNABLE) and deal.solver_version == SOLVER_VERSION:
        known[0] = {"verdict": deal.verdict, "line": deal.winning_line}
    prefixes = {_prefix(line[:moves]): moves for moves in range(len(line) + 1)}
    rows = PositionVerdict.objects.filter(
        deal=deal, solver_version=SOLVER_VERSION, prefix__in=list(prefixes)
    ).values("prefix", "verdict", "line", "budget_s")
    for row in rows:
        if row["verdict"] != UNKNOWN or row["budget_s"] >= budget:
            known[prefixes[row["prefix"]]] = {"verdict": row["verdict"], "line": row["line"]}
    return known


def _solve(deal, line, known):
    """Get the line's missing verdicts solved: True once they are stored here.

    The first process asked claims the question and starts it in its solver pool;
    the pool's answer goes to the shared store, and whichever process is asked
    next stores it in the database."""
    budget = settings.HALFMOON_ANALYSIS_SOLVE_S
    key = f"analysis:{SOLVER_VERSION}:{budget}:{deal.code}:{_prefix(line)}"
    shared = claims.store()
    found = shared.answer(key)
    if found is not None:
        _store(deal, line, found)
        return True
    if shared.claim(key, claims.CLAIM_S):
        job = pool.submit(
            ("analysis", key), verdicts.follow, deal.code, deal.custom_layout(), line, budget, known
        )
        job.add_done_callback(partial(_solved, shared, key, budget))
    return False


def _solved(shared, key, budget, job):
    """The pool's callback: the answer goes where every process finds it; a failed
    solve gives its claim up, so that the next ask starts it again."""
    if job.cancelled() or job.exception() is not None:
        shared.release(key)
        return
    shared.put(key, {"budget_s": budget, "positions": job.result()})


def _store(deal, line, found):
    for moves, position in found["positions"].items():
        moves = int(moves)  # JSON keys are strings
        PositionVerdict.objects.update_or_create(
            deal=deal,
            prefix=_prefix(line[:moves]),
            solver_version=SOLVER_VERSION,
            defaults={"moves": moves, "budget_s": found["budget_s"], **position},
        )
