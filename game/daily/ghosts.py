"""
Ghost races: a daily deal, past or today's, played against a recorded game.

"Race the leader" pits a player against the first result of the day's ranked
board, "Race your best" against their own best finished game on that deal. The
ghost is progress only — score, moves, cards left, pile heights and status over
time, rebuilt through the engine from its stored moves (`replays.timeline`,
sent once on connect by `frames.ghost`) — never a card. The game itself is a
race of its own mode, played alone (`alone.ghost_race`): it is no daily attempt
and never ranks.

Today's deal stays secret until its day is over. The ghost race hides its code
as the attempt does, and shows the leader's pile heights only once the day is
over (they trace the leader's line: game/deals/secrecy.py). Today's ghosts are
raced only by a player whose own attempt at the ranked deal is over: the ghost's
board is the ranked deal, so racing it first would be a look at the deal before
the attempt that ranks. A guest's attempt is on the guests' deal, so no guest
races today's ghosts (docs/fair-play.md); a past day's ghosts are anyone's.
"""

from game.base import days
from game.base.errors import GameError
from game.daily import attempts, day_board
from game.deals import daily
from game.lobby import alone
from game.models import Entry, Race

LEADER, BEST = "leader", "best"


def offer(day, player_key):
    """What this player may race on the deal of `day` (a DailyDeal): whether they may
    now (`open`), and the leader's and their own best result, each None if there is none."""
    attempts.finish_expired(day)
    return {
        "date": day.date.isoformat(),
        "open": is_open(day, player_key),
        "closed_today": not is_open(day, player_key) and _closed_all_day(day, player_key),
        LEADER: _result(day_board.leader(day.date)),
        BEST: _result(best(day, player_key)),
    }


def race(day, of, player_key, name):
    """This player's race against the `of` ghost (LEADER or BEST) of the day's deal:
    an unfinished one, or a new one. GameError when there is none to race yet."""
    if of not in (LEADER, BEST):
        raise GameError("bad_field", "of is 'leader' or 'best'")
    attempts.finish_expired(day)
    if not is_open(day, player_key):
        raise GameError("attempt_first", "race today's ghosts once your own attempt is over")
    ghost = day_board.leader(day.date) if of == LEADER else best(day, player_key)
    if ghost is None:
        if of == LEADER:
            raise GameError("no_leader", "nobody has a ranked result on this deal yet")
        raise GameError("no_best", "you have no finished game on this deal yet")
    return alone.ghost_race(day, ghost, player_key, name)


def is_open(day, player_key):
    """A past day's ghosts are anyone's; today's, only a player's whose own attempt at
    the ranked deal is over (never a guest's: theirs is on the guests' deal)."""
    if day.date < days.today():
        return True
    attempt = Entry.objects.filter(daily_date=day.date, player_key=player_key)
    return attempt.filter(race__deal=day.deal, status__in=Entry.DONE).exists()


def _closed_all_day(day, player_key):
    """Whether today's ghosts stay closed to this player whatever they do today: a
    guest, an account too new to rank, or one whose attempt is on the guests' deal."""
    if not daily.plays_ranked(player_key):
        return True
    attempt = Entry.objects.filter(daily_date=day.date, player_key=player_key)
    return attempt.exclude(race__deal=day.deal).exists()


def best(day, player_key):
    """The player's best finished game of that day (the attempt, a ghost race) on its
    deal, in the board's order; None before they finish one. Never a game on a typed
    code: counting one would say whether the code was that day's deal."""
    mine = Entry.objects.filter(
        player_key=player_key,
        race__daily_date=day.date,
        race__deal=day.deal,
        race__status=Race.FINISHED,
        status__in=Entry.DONE,
    )
    return day_board.best_of(mine)


def _result(entry):
    if entry is None:
        return None
    fields = ("name", "status", "score", "moves", "time_ms")
    return {field: getattr(entry, field) for field in fields}
