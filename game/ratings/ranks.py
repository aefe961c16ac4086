"""
Rank names from the rating (docs/ratings.md), and how a rating is shown: a
provisional one (deviation 110 or more) as "1500?", a change as "+12" or "−9".
"""

PROVISIONAL_DEVIATION = 110
"""A rating is provisional until its deviation drops under this."""

RANKS = (
    (0, "new_moon"),
    (1200, "crescent"),
    (1400, "first_quarter"),
    (1600, "gibbous"),
    (1800, "full_moon"),
    (2000, "eclipse"),
)
"""(lowest rating, rank) from the bottom: the Half Moon's phases."""


def rank(rating):
    """The rank code of a rating (the highest whose floor it reaches)."""
    return next(code for floor, code in reversed(RANKS) if rating >= floor)


def provisional(deviation):
    return deviation >= PROVISIONAL_DEVIATION


def shown(rating, deviation):
    """ "1500?" while provisional, else "1500"."""
    return f"{round(rating)}{'?' if provisional(deviation) else ''}"


def signed(change):
    """ "+12", "−9" (a true minus sign) or "±0": frontend/js/ratings.js `signed`'s twin."""
    if change > 0:
        return f"+{change}"
    return f"\u2212{-change}" if change < 0 else "\u00b10"
