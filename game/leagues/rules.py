"""
The weekly leagues' rule, pure (no Django, no database) so that the points a player
sees, the week's promotions and a test's expectations all come from one place
(docs/leagues.md states it in words).

A week's points, from the week's results that count:

- a ranked daily deal: won 10, played to the end without winning 3;
- a rated race: 1, and 2 for each opponent beaten — but at most `PAIR_CAP` races a
  week score against the same opponent (a race scores while one of its opponents is
  under the cap), so a pair of friends cannot farm each other;
- an event: by final rank, 12 for the first, 9, 7, 5, 4 for the next, 2 for any other
  rank of a player who played;
- nothing for a game shorter than `MIN_MOVES` moves.

At the week's end each group (~30 accounts of one tier) is ranked by points, ties
broken by who reached them first; the top `movers(size)` with points move up a tier
(not from the top tier), the bottom `movers(size)` move down (not from the lowest).
"""

import datetime
from collections import Counter
from dataclasses import dataclass, field

TIERS = ("new_moon", "crescent", "first_quarter", "gibbous", "full_moon")
"""The tiers, lowest first, named by the moon's phases (as the rating ranks are)."""
GROUP_SIZE = 30
"""Accounts a group takes before the tier opens another."""
MIN_MOVES = 10
PAIR_CAP = 3
DAILY_WON, DAILY_PLAYED = 10, 3
RACE_FINISHED, RACE_OPPONENT_BEATEN = 1, 2
EVENT_RANK_POINTS = (12, 9, 7, 5, 4)
EVENT_PLAYED = 2
DAILY, RACE, EVENT = "daily", "race", "event"
UP, DOWN, STAY = "up", "down", "stay"


@dataclass(frozen=True)
class Result:
    """One result of the week that may score: what it was and when."""

    kind: str
    at: datetime.datetime
    moves: int
    won: bool = False
    beaten: int = 0
    """A rated race: opponents beaten."""
    opponents: frozenset = field(default_factory=frozenset)
    """A rated race: the other accounts' ids."""
    rank: int | None = None
    """An event: the final rank."""


def result_points(result):
    """What one result scores on its own, before the cap against one opponent."""
    if result.moves < MIN_MOVES:
        return 0
    if result.kind == DAILY:
        return DAILY_WON if result.won else DAILY_PLAYED
    if result.kind == RACE:
        return RACE_FINISHED + RACE_OPPONENT_BEATEN * result.beaten
    if result.rank is None:
        return 0
    return (
        EVENT_RANK_POINTS[result.rank - 1]
        if result.rank <= len(EVENT_RANK_POINTS)
        else EVENT_PLAYED
    )


def week_points(results):
    """(points, when the last of them was scored) over a week's results, in time order."""
    met, total, scored_at = Counter(), 0, None
    for result in sorted(results, key=lambda result: result.at):
        points = result_points(result)
        if result.kind == RACE and points:
            if result.opponents and all(met[other] >= PAIR_CAP for other in result.opponents):
                continue
            met.update(result.opponents)
        if points:
            total, scored_at = total + points, result.at
    return total, scored_at


def week_start(day):
    """The Monday of `day`'s ISO week: the week's name in storage and in addresses."""
    return day - datetime.timedelta(days=day.weekday())


def movers(size):
    """How many move up (and down) in a group of `size`: one in six, at least one."""
    return max(1, size // 6)


def outcomes(ranked, tier):
    """{member: UP | DOWN | STAY} for a group's members ranked best first, each a pair
    (member, points); only a member with points moves up."""
    count = movers(len(ranked))
    result = {}
    for place, (member, points) in enumerate(ranked):
        if place < count and points > 0 and tier < len(TIERS) - 1:
            result[member] = UP
        elif place >= len(ranked) - count and tier > 0 and place >= count:
            result[member] = DOWN
        else:
            result[member] = STAY
    return result


def next_tier(tier, outcome):
    """The tier a member starts its next week in."""
    return tier + {UP: 1, DOWN: -1}.get(outcome, 0)
