"""
"Was it winnable?" — asked only once a player's game is over.

The rule book promises no solver and no hint during play, so the answer is
given for a finished game only: the deal's verdict (from its stored analysis,
made now if missing) and, for a game that was not won, the last move after
which it could still have been won. Along one game's line winnability can be
lost but never regained (a position can be won only if the one before it
could), so the winnable moves are a prefix of the line, found by bisection.
"""

from django.conf import settings

from game import boards, secrecy
from game.analysis import analyze_deal_row
from game.engine import replay
from game.engine.solver import SOLVER_VERSION, UNKNOWN, WINNABLE, solve
from game.errors import GameError
from game.models import Entry


def hindsight(room, player_key):
    """The verdicts for this player's finished game in `room` (GameError otherwise)."""
    entry = (
        Entry.objects.select_related("race__deal")
        .filter(race__room=room, player_key=player_key)
        .first()
    )
    if entry is None:
        raise GameError("not_a_player", "only a player of this race can ask")
    if not entry.done:
        raise GameError("still_playing", "ask once your game is over: no hints during play")
    deal = entry.race.deal
    if deal.verdict in (None, UNKNOWN) or deal.solver_version != SOLVER_VERSION:
        analyze_deal_row(deal, seconds=settings.HALFMOON_HINDSIGHT_SOLVE_S)
    line = boards.replay(entry, deal).history
    answer = {
        "deal": secrecy.shown_code(entry.race),
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
