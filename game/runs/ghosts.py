"""
A ghost race against any finished run the viewer may see: their own best, a friend's,
any board entry's once its day is over, or a shared run's.

Racing a run is playing its deal, so it is allowed only where the deal may be known:
the run's code is no secret any more (a past day, a finished race, an event over),
or, on a day still running, the viewer's own attempt at that same deal is over (as
"Race the leader" works today: game/daily/ghosts.py). So a follower of a link to
today's daily plays their own attempt first; a guest follows a guest's run, on the
guests' deal, the same way. The ghost race is game/lobby/alone.py's: played alone,
never ranked, the run's day carried so that its code stays hidden as the day's.
"""

from game.base import days
from game.base.errors import GameError
from game.deals import secrecy
from game.lobby import alone
from game.models import Entry
from game.replays import watch


def may_race(entry, player_key):
    """Whether the holder of `player_key` may race `entry`'s game as a ghost now."""
    race = entry.race
    if not entry.done:
        return False
    if race.daily_date is not None and race.daily_date >= days.today():
        return attempt_over(race, player_key)
    return watch.visible(race, entry, player_key) and secrecy.shown_code(race) is not None


def attempt_over(race, player_key):
    """Whether this player's attempt of the race's day is over, on the race's deal."""
    mine = Entry.objects.filter(daily_date=race.daily_date, player_key=player_key)
    return mine.filter(race__deal_id=race.deal_id, status__in=Entry.DONE).exists()


def race(entry, player_key, name):
    """This player's race against `entry`'s game: an unfinished one, or a new one;
    GameError `attempt_first` when they may not race it yet."""
    if not may_race(entry, player_key):
        raise GameError("attempt_first", "race this game once you may know its deal")
    return alone.recorded_race(entry, player_key, name)
