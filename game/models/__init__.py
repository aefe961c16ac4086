"""
What the race server stores, one module per context: deals, the daily deal, races
(with their players and moves), players. `from game.models import X` finds every model.

The database is the truth shared by every server process: a player's board is never
stored but replayed from their moves, so a reconnect to any process rebuilds the
exact same game.
"""

from game.models.daily import DailyDeal
from game.models.deals import CUSTOM_PREFIX, Deal, PositionVerdict
from game.models.players import Account, NameReview, Review
from game.models.races import NAME_MAX, Entry, Move, QuickSeat, Race

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
    "Review",
]
