"""
An event's points and its order: one small rule, pure (no Django), so the standings,
the final ranks and the docs all say the same (docs/events.md).

- A game scores its engine score (10 a pair, 15 a Jack-Queen-King): a game given up
  or out of time keeps what it had.
- A won game adds WIN_BONUS.
- A win after two wins in a row adds STREAK_BONUS as well (the third, fourth… of a
  run of wins in deal order); a game not won ends the run.
- Players are ordered by points (more first), then by the time their games over
  took (less first: the same points sooner), then by who joined first.

A game still in play counts its score so far in the live standings, without bonus:
bonuses come when it is over (`settle`).
"""

from dataclasses import dataclass

WIN_BONUS = 100
STREAK_BONUS = 50
STREAK_AFTER = 2
"""Wins in a row before the next win adds the streak bonus."""


@dataclass(frozen=True)
class Result:
    """A game that is over, as the rule reads it."""

    score: int
    won: bool
    time_ms: int


@dataclass(frozen=True)
class Totals:
    points: int
    wins: int
    time_ms: int
    per_game: tuple
    """Each game's points, in deal order."""


def settle(results):
    """The totals of `results` (games over, in deal order)."""
    run, per_game = 0, []
    for result in results:
        points = result.score
        if result.won:
            points += WIN_BONUS + (STREAK_BONUS if run >= STREAK_AFTER else 0)
            run += 1
        else:
            run = 0
        per_game.append(points)
    return Totals(
        points=sum(per_game),
        wins=sum(r.won for r in results),
        time_ms=sum(r.time_ms for r in results),
        per_game=tuple(per_game),
    )


def order_key(points, time_ms, joined):
    """Sort key of a player: more points first, then less time, then who joined first
    (`joined`: anything that orders, the entry's id)."""
    return (-points, time_ms, joined)


def ranks(keys):
    """1-based ranks of players given their `order_key`s in order: players level on
    points and time share a rank (1, 2, 2, 4)."""
    out, previous = [], None
    for position, key in enumerate(keys, start=1):
        level = key[:2]
        out.append(out[-1] if level == previous else position)
        previous = level
    return out
