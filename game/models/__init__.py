"""
What the server stores, one module per context (deals, daily, races, players, friends,
records, ratings, events, the boards' rank counts); `from game.models import X`.
"""

from game.models.daily import DailyDeal
from game.models.deals import CUSTOM_PREFIX, Deal, PositionVerdict
from game.models.events import Event, EventDeal, EventEntry, EventGame, EventSchedule
from game.models.friends import Block, Challenge, Follow
from game.models.players import Account, NameReview, Review
from game.models.races import NAME_MAX, Entry, Move, QuickSeat, Race
from game.models.ratings import RatedPair, RatingChange
from game.models.records import ALL_TIME_START, RankCount, Record

__all__ = [
    "ALL_TIME_START",
    "CUSTOM_PREFIX",
    "NAME_MAX",
    "Account",
    "Block",
    "Challenge",
    "DailyDeal",
    "Deal",
    "Entry",
    "Event",
    "EventDeal",
    "EventEntry",
    "EventGame",
    "EventSchedule",
    "Follow",
    "Move",
    "NameReview",
    "PositionVerdict",
    "QuickSeat",
    "Race",
    "RankCount",
    "Record",
    "RatedPair",
    "RatingChange",
    "Review",
]
