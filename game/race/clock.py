"""
A race's two clocks, and its end: the server's time and the race's event count.

The server's time: a countdown's end and a time limit are stored as instants
(a solo or ghost game has no limit, a daily attempt only its day's, an event's game
its event's end: `limit_s`)
and applied lazily by `advance()` at the start of every `actions` function (and
by `actions.tick`, which connected consumers call when a deadline passes), inside the
transaction that holds the race's lock. Whichever process gets there first makes
the change; the others find it made.

The event count: every broadcast frame carries the race's next `event` number
(`numbered`), incremented in the same transaction as the change it reports, so
a client that sees a gap knows it missed something and asks for `state`.

The end: once every player is done, or the time ran out, the race finishes;
every result is judged (game/race/fairplay.py) and a rated race's ratings move
(game/race/rated.py) before `finished` is announced.
A quick race that too few of its seated players came to is called off at its
countdown's end, never started (`requeued`).
"""

import math
from datetime import timedelta

from django.conf import settings
from django.db.models import Max

from game.base import days
from game.engine import Game
from game.leagues import members
from game.models import Entry, Race
from game.race import attendance, fairplay, frames, move_log, rated


def numbered(race, frame):
    """`frame` with the race's next event number (the race is saved by its action)."""
    race.event += 1
    frame["event"] = race.event
    return frame


def limit_s(mode, daily_date, start, closes_at=None):
    """Seconds from `start` until the race's time runs out, or None: no limit.

    A race (and a quick race) has HALFMOON_TIME_LIMIT_S, so that it ends for everyone.
    A solo or ghost game has none, as in the rule book: no one waits for it and it
    never ranks. Nor has a daily attempt within its day; but once the day is over its
    code and every winning replay are public, so an attempt still going runs out
    HALFMOON_TIME_LIMIT_S later (what one begun just before midnight always had).
    An event's game runs out when its event ends (`closes_at`), on the event's clock."""
    if mode in (Race.SOLO, Race.GHOST):
        return None
    if mode == Race.EVENT:
        return max(0, math.ceil((closes_at - start).total_seconds()))
    limit = settings.HALFMOON_TIME_LIMIT_S
    if mode == Race.DAILY:
        return max(0, math.ceil((days.end_of(daily_date) - start).total_seconds())) + limit
    return limit


def begin(race, now, delay):
    """Start the countdown (`delay` s), or with no delay the race itself."""
    if delay > 0:
        race.status = Race.COUNTDOWN
        race.starts_at = now + timedelta(seconds=delay)
        players = list(race.entries.values_list("pk", flat=True))
        return [numbered(race, frames.countdown(race, players))]
    race.status, race.starts_at = Race.COUNTDOWN, now
    return advance(race, now, attend=False)


def advance(race, now, attend):
    """The clock and, with `attend`, who is present (moves skip that: it is the hot
    path, and every other action and the sweeper apply it)."""
    changes = attendance.apply(race, now, numbered) if attend else []
    if changes and race.status == Race.RUNNING:
        changes += finish_if_all_done(race, now)
    if race.status == Race.COUNTDOWN and now >= race.starts_at:
        changes += _start(race, now)
    if race.status == Race.RUNNING and race.ends_at is not None and now >= race.ends_at:
        # Applied lazily, perhaps long after: the time ran out at ends_at, not now.
        ended = race.ends_at
        race.entries.exclude(status__in=Entry.DONE).update(
            status=Entry.TIMED_OUT, finished_at=ended
        )
        changes += _finish(race, ended)
    return changes


def _start(race, now):
    """The countdown is over. Whoever has no socket open is not in the race: a
    quick-race seat nobody took must not keep the others waiting for the time limit,
    and a quick race left with fewer than two is called off instead of raced alone
    (its player goes back to the front of the queue: game/lobby/quick.py)."""
    race.entries.filter(connected=False).delete()
    if race.mode == Race.QUICK and race.entries.count() < 2:
        race.status, race.finished_at = Race.FINISHED, now
        return [numbered(race, frames.requeued(race))]
    race.status, race.started_at = Race.RUNNING, race.starts_at
    race.time_limit_s = limit_s(race.mode, race.daily_date, race.started_at, race.closes_at)
    race.entries.update(status=Game(race.deal.engine_deal()).status)
    return [numbered(race, frames.started(race)), *finish_if_all_done(race, now)]


def finish_if_all_done(race, now):
    """Finish the race once no player is still playing, dated by the last one done."""
    if race.entries.exclude(status__in=Entry.DONE).exists():
        return []
    last = race.entries.aggregate(last=Max("finished_at"))["last"]
    return _finish(race, min(now, last) if last else now)


def _finish(race, now):
    """The race is over: every result is judged (game/race/fairplay.py), a rated race's
    ratings move (game/race/rated.py), its accounts' league points
    (game/leagues/), every game not packed yet (blocked, timed out)
    is packed (game/race/move_log.py), then it is announced."""
    race.status, race.finished_at = Race.FINISHED, now
    fairplay.judge(race)
    rated.settle(race)
    members.note_race(race)
    move_log.pack(race.entries.all(), race)
    return [numbered(race, frames.finished(race))]
