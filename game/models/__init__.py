"""
What the server stores, one module per context (deals, daily, races, players, ratings); the
database is the truth every process shares. `from game.models import X` finds every model.
"""

from game.models.daily import DailyDeal
from game.models.deals import CUSTOM_PREFIX, Deal, PositionVerdict
from game.models.players import Account, NameReview, Review
from game.models.races import NAME_MAX, Entry, Move, QuickSeat, Race
from game.models.ratings import RatedPair, RatingChange

__all__ = [
    "CUSTOM_PREFIX",
    "NAME_MAX",
    "Account",
    "DailyDeal",
    "Deal",
    "Entry",
    "Move",
    "NameReview",
    "PositionVerdict",
    "QuickSeat",
    "Race",
    "RatedPair",
    "RatingChange",
    "Review",
]
