"""
"Was it winnable?" — asked only once a player's game is over.

The rule book promises no solver and no hint during play, so the answer is
given for a finished game only: the deal's verdict (from its stored analysis,
made now if missing) and, for a game that was not won, the last move after
which it could still have been won (`game.analysis.hindsight`).

The solving runs in the solver pool (`game.solving`), never in the request:
the first asks get None ("computing", the client polls) until the pool's
answer is in. A finished game's line never changes, so each entry's answer is
computed once per process and kept.
"""

from django.conf import settings

from game import boards, secrecy, solving
from game.analysis import hindsight as solve_hindsight
from game.analysis import store
from game.engine.solver import SOLVER_VERSION, UNKNOWN
from game.errors import GameError
from game.models import Deal, Entry


def hindsight(room, player_key):
    """The verdicts for this player's finished game in `room`, or None while they are
    being computed (GameError when there is nothing to ask)."""
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
    known = _analysis(deal)
    line = boards.replay(entry, deal).history
    layout = deal.layout if deal.source == Deal.CUSTOM else None
    budget = settings.HALFMOON_HINDSIGHT_SOLVE_S
    job = solving.submit(
        ("hindsight", room, entry.pk), solve_hindsight, deal.code, layout, line, budget, known
    )
    if not job.done():
        return None
    fields, winnable_until = job.result()
    if known is None:
        store(deal, fields)
    return {
        "deal": secrecy.shown_code(entry.race),
        "verdict": fields["verdict"],
        "difficulty": fields["difficulty_label"],
        "moves": len(line),
        "winnable_until": winnable_until,
    }


def _analysis(deal):
    """The deal's stored analysis fields, or None when it must be (re)made."""
    if deal.verdict in (None, UNKNOWN) or deal.solver_version != SOLVER_VERSION:
        return None
    return {"verdict": deal.verdict, "difficulty_label": deal.difficulty_label}
