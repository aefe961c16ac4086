"""
Glicko-2, as Mark Glickman's paper gives it ("Example of the Glicko-2 system",
2022), steps 1 to 8. A rating period is one rated race or event: a player's games in
it are its pairs against the others (game/ratings/pairs.py), N−1 in a race of N.

No package from PyPI fit: the `glicko2` distributions are unmaintained single
files with no tests, and their volatility step is the paper's older iteration.
This one follows the paper's Illinois algorithm (step 5) and is held to its
worked example (tests/ratings/test_glicko2.py: 1464.06 / 151.52 / 0.05999).
"""

import math
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale (1500 ± 350) and its own."""
TAU = 0.5
"""The system constant: how much volatility may change in one period (0.3-1.2)."""
EPSILON = 0.000001
"""The volatility iteration's tolerance."""
START = (1500.0, 350.0, 0.06)
"""A new player: rating, deviation, volatility."""
MIN_DEVIATION = 30.0
"""A deviation never shrinks below this: a rating stays able to move."""


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale, its deviation and its volatility."""

    rating: float = START[0]
    deviation: float = START[1]
    volatility: float = START[2]


def _g(phi):
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu, mu_j, phi_j):
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player, games, tau=TAU):
    """The player's `Rating` after one period of `games`: (opponent's Rating, score)
    pairs, score 1 a win, 0.5 a draw, 0 a loss. No games: the deviation grows (step 6)."""
    if not games:
        return idle(player, 1)
    mu, phi = (player.rating - 1500) / SCALE, player.deviation / SCALE
    inverse_v, sum_delta = 0.0, 0.0
    for opponent, score in games:
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        inverse_v += _g(phi_j) ** 2 * e * (1 - e)
        sum_delta += _g(phi_j) * (score - e)
    v = 1 / inverse_v
    sigma = _volatility(phi, player.volatility, v, v * sum_delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * sum_delta
    deviation = max(phi_new * SCALE, MIN_DEVIATION)
    return Rating(1500 + mu_new * SCALE, deviation, sigma)


def idle(player, periods):
    """The player after `periods` rating periods without a game: the deviation grows by
    the volatility each period (step 6 alone), up to a new player's; nothing else moves."""
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + max(periods, 0) * player.volatility**2) * SCALE
    return Rating(player.rating, min(grown, START[1]), player.volatility)


def _volatility(phi, sigma, v, delta, tau):
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
