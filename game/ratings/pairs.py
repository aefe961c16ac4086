"""
Results as pairwise games, the form Glicko-2 rates (one rating period each).

A race of 2 to 4 rated players (`games`): each pair's result from the finishing
order, each player's period the games against every other.

- a player who stayed beats one who abandoned (counted out for leaving);
- a win beats anything else; two wins: the shorter time, equal times a draw;
- two unfinished games: the higher score, then fewer moves; the same: a draw.

A rated event's final standings (`neighbours`): every pair of 2,000 players would be
two million games, so each player is compared with the NEIGHBOURS players just above
and the NEIGHBOURS just below them in the standings — the one ranked higher wins, a
shared rank is a draw. At most 2 × NEIGHBOURS games each, N × NEIGHBOURS in all.
"""

from dataclasses import dataclass
from itertools import combinations

NEIGHBOURS = 10
"""Players above and below one's own place that an event's standings compare one with."""


@dataclass(frozen=True)
class Result:
    """What the pairwise rule reads of one player's game."""

    won: bool
    abandoned: bool
    time_ms: int | None
    score: int
    moves: int


def _order(result):
    """Smaller is better; equal keys are a draw."""
    if result.won and not result.abandoned:
        return (0, result.time_ms or 0, 0, 0)
    return (2 if result.abandoned else 1, 0, -result.score, result.moves)


def score(mine, theirs):
    """1 if `mine` beat `theirs`, 0.5 a draw, 0 a loss."""
    a, b = _order(mine), _order(theirs)
    return 1.0 if a < b else 0.5 if a == b else 0.0


def games(results, counts=lambda a, b: True):
    """{player: [(opponent, score)]} for `results` ({player: Result}); a pair for which
    `counts(a, b)` is false (the day's cap between two accounts) is left out."""
    out = {player: [] for player in results}
    for a, b in combinations(results, 2):
        if counts(a, b):
            out[a].append((b, score(results[a], results[b])))
            out[b].append((a, score(results[b], results[a])))
    return out


def neighbours(standings, counts=lambda a, b: True, reach=NEIGHBOURS):
    """{player: [(opponent, score)]} for an event's final `standings`: [(player, rank)]
    best first (level players share a rank). Each plays the `reach` players on either
    side of their place: the better rank wins, the same rank draws; a pair for which
    `counts(a, b)` is false is left out, as in `games`."""
    out = {player: [] for player, _ in standings}
    for place, (a, rank_a) in enumerate(standings):
        for b, rank_b in standings[place + 1 : place + 1 + reach]:
            if counts(a, b):
                mine = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
                out[a].append((b, mine))
                out[b].append((a, 1.0 - mine))
    return out
