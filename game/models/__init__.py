"""
What the server stores, one module per context (deals, races, players, events, leagues…):
the truth every process shares; `from game.models import X`.
"""

from game.models.daily import DailyDeal
from game.models.deals import CUSTOM_PREFIX, Deal, PositionVerdict
from game.models.events import Event, EventDeal, EventEntry, EventGame, EventSchedule
from game.models.friends import Block, Challenge, Follow
from game.models.leagues import LeagueMember, LeagueWeek
from game.models.players import Account, NameReview, Review
from game.models.races import NAME_MAX, Entry, Move, QuickSeat, Race
from game.models.ratings import RatedPair, RatingChange
from game.models.records import ALL_TIME_START, RankCount, Record
from game.models.reminders import PushSubscription, Reminder

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
    "LeagueMember",
    "LeagueWeek",
    "Move",
    "NameReview",
    "PositionVerdict",
    "PushSubscription",
    "QuickSeat",
    "Race",
    "RankCount",
    "Record",
    "RatedPair",
    "RatingChange",
    "Reminder",
    "Review",
]
