"""
The rules that keep a rating from being farmed, as pure maths (game/results/rated.py
applies them). One farmer and two fresh feeder accounts from one address went from
1500 to 1857, #1 on the board, in six races the feeders resigned at once; the day's
cap per pair held, and did not stop it.

- **Not a game**: a race over within MIN_SECONDS is not rated at all, and a player
  who gave up or left before MIN_MOVES moves is left out of its rating (chess.com
  counts no league trophies for games under 10 moves; Lichess aborts them). Both
  are settings (HALFMOON_RATED_MIN_S, HALFMOON_RATED_MIN_MOVES): these are their
  defaults.
- **Damped gains**: what a player gains against an opponent still provisional (or
  with fewer than PROVISIONAL_GAMES rated games) counts PROVISIONAL_WEIGHT of it;
  against an account younger than the ranking age, YOUNG_WEIGHT.
- **A day's cap**: a gain against an account created recently or from one's own
  address counts only up to a cap a day (`within_cap`), whatever the pairs.
"""

from game.ratings import ranks

MIN_MOVES = 10
"""Moves a player makes before giving up or leaving for their race to count for them."""
MIN_SECONDS = 30
"""A rated race that ended sooner than this is not rated."""
PROVISIONAL_GAMES = 10
PROVISIONAL_WEIGHT = 0.5
YOUNG_WEIGHT = 0.25

TOO_SHORT, LEFT_EARLY = "too_short", "left_early"
"""Why a rated race did not move a rating, as the `finished` frame says it."""


def too_short(seconds, least=MIN_SECONDS):
    """Whether a race that lasted `seconds` is too short to be rated."""
    return seconds < least


def left_early(gave_up, moves, least=MIN_MOVES):
    """Whether a player who made `moves` and `gave_up` (resigned or left) is out."""
    return gave_up and moves < least


def weight(deviation, rated_games, young):
    """The share of a gain against an opponent that counts: 1, PROVISIONAL_WEIGHT for
    a provisional opponent (or one of few rated games), YOUNG_WEIGHT for a young one."""
    if young:
        return YOUNG_WEIGHT
    if ranks.provisional(deviation) or rated_games < PROVISIONAL_GAMES:
        return PROVISIONAL_WEIGHT
    return 1.0


def damped(change, weights):
    """A rating `change` with its gain scaled by the smallest weight of the opponents
    it was gained against (`weights`); a loss is never damped."""
    if change <= 0 or not weights:
        return change
    return change * min(weights)


def within_cap(change, gained, cap):
    """A rating `change` against new or same-address accounts, after `gained` such
    points already today: at most what is left of `cap` (a loss counts in full)."""
    if change <= 0:
        return change
    return min(change, max(0.0, cap - gained))
