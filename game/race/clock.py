"""
A race's two clocks, and its end: the server's time and the race's event count.

The server's time: a countdown's end and a time limit are stored as instants
and applied lazily by `advance()` at the start of every `actions` function (and
by `actions.tick`, which connected consumers call when a deadline passes), inside the
transaction that holds the race's lock. Whichever process gets there first makes
the change; the others find it made.

The event count: every broadcast frame carries the race's next `event` number
(`numbered`), incremented in the same transaction as the change it reports, so
a client that sees a gap knows it missed something and asks for `state`.

The end: once every player is done, or the time ran out, the race finishes;
every result is judged (game/race/fairplay.py) before `finished` is announced.
"""

from datetime import timedelta

from django.db.models import Max

from game.engine import Game
from game.models import Entry, Race
from game.race import attendance, fairplay, frames


def numbered(race, frame):
    """`frame` with the race's next event number (the race is saved by its action)."""
    race.event += 1
    frame["event"] = race.event
    return frame


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
        race.status, race.started_at = Race.RUNNING, race.starts_at
        # Whoever has no socket open at the start is not in the race: a quick-race
        # seat nobody took must not keep the others waiting for the time limit.
        race.entries.filter(connected=False).delete()
        race.entries.update(status=Game(race.deal.engine_deal()).status)
        changes.append(numbered(race, frames.started(race)))
        changes += finish_if_all_done(race, now)
    if race.status == Race.RUNNING and now >= race.ends_at:
        # Applied lazily, perhaps long after: the time ran out at ends_at, not now.
        ended = race.ends_at
        race.entries.exclude(status__in=Entry.DONE).update(
            status=Entry.TIMED_OUT, finished_at=ended
        )
        changes += _finish(race, ended)
    return changes


def finish_if_all_done(race, now):
    """Finish the race once no player is still playing, dated by the last one done."""
    if race.entries.exclude(status__in=Entry.DONE).exists():
        return []
    last = race.entries.aggregate(last=Max("finished_at"))["last"]
    return _finish(race, min(now, last) if last else now)


def _finish(race, now):
    """The race is over: every result is judged (game/race/fairplay.py), then announced."""
    race.status, race.finished_at = Race.FINISHED, now
    fairplay.judge(race)
    return [numbered(race, frames.finished(race))]
