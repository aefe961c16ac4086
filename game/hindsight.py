"""
"Was it winnable?" — asked only once a player's game is over.

The rule book promises no solver and no hint during play, so the answer is
given for a finished game only: the deal's verdict (from its stored analysis,
made now if missing) and, for a game that was not won, the last move after
which it could still have been won. Winnability only ever shrinks along one
game's line (a position reached from a winnable one... is winnable only if
its start was), so that move is found by bisecting the line's prefixes.
"""

from django.conf import settings

from game import boards
from game.analysis import analyze_deal_row
from game.engine import replay
from game.engine.solver import SOLVER_VERSION, UNKNOWN, WINNABLE, solve
from game.models import Entry
from game.races import RaceError


def hindsight(room, player_key):
    """The verdicts for this player's finished game in `room` (RaceError otherwise)."""
    entry = (
        Entry.objects.select_related("race__deal")
        .filter(race__room=room.upper(), player_key=player_key)
        .first()
    )
    if entry is None:
        raise RaceError("not_a_player", "only a player of this race can ask")
    if not entry.done:
        raise RaceError("still_playing", "ask once your game is over: no hints during play")
    deal = entry.race.deal
    if deal.verdict in (None, UNKNOWN) or deal.solver_version != SOLVER_VERSION:
        analyze_deal_row(deal, seconds=settings.HALFMOON_HINDSIGHT_SOLVE_S)
    line = boards.replay(entry, deal).history
    answer = {
        "deal": deal.code,
        "verdict": deal.verdict,
        "difficulty": deal.difficulty_label,
        "moves": len(line),
        "winnable_until": None,
    }
    if deal.verdict == WINNABLE:
        answer["winnable_until"] = last_winnable_move(deal.engine_deal(), line)
    return answer


def last_winnable_move(deal, line):
    """How many moves of `line` keep the game winnable (the deal itself is); None if unsure."""
    budget = settings.HALFMOON_HINDSIGHT_SOLVE_S
    low, high = 0, len(line)  # low: known winnable; above high: known lost
    while low < high:
        middle = (low + high + 1) // 2
        verdict = solve(replay(deal, line[:middle]), max_seconds=budget).verdict
        if verdict == UNKNOWN:
            return None
        if verdict == WINNABLE:
            low = middle
        else:
            high = middle - 1
    return low
