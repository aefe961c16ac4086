"""
Who is still in a race, read from the presence marks, and what follows from it.

A player whose last mark ran out is announced as gone (`player_left`); back
within settings.HALFMOON_ABANDON_S, they simply carry on (`player_joined`).
Gone for longer in a running race with others, they are counted out: `abandoned`, which
counts as not won, dated when the grace period ran out; once every player is
done the race finishes. In the lobby, a host gone that long hands the race to
the player who has waited longest among those still there.

`review` decides from plain values (the sweeper asks it whether a race needs a
visit at all); `apply` makes the decisions inside a race's transaction.
"""

import datetime
from dataclasses import dataclass

from django.conf import settings

from game.base import presence
from game.models import Entry, Race
from game.race import frames
from game.results import move_log

BACK, GONE, ABANDONED = "back", "gone", "abandoned"
RACING = (Race.RACE, Race.QUICK)
"""Modes where others wait for a player; a solo or daily game just runs to its time limit."""


@dataclass(frozen=True)
class Review:
    changes: list
    """[(entry, BACK | GONE | ABANDONED, when)]"""
    new_host: object = None
    """The entry that becomes host, if the host is gone."""


def _instant(seconds):
    return datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC)


def review(race, entries, until, now):
    """What the marks `until` ({entry id: epoch s}) mean for `entries` of `race` at `now`."""
    grace = datetime.timedelta(seconds=settings.HALFMOON_ABANDON_S)
    stamp = now.timestamp()
    changes, gone_since = [], {}
    for entry in entries:
        live = until.get(entry.pk, 0.0) > stamp
        left_at = entry.left_at
        if live and not entry.connected:
            changes.append((entry, BACK, now))
            left_at = None
        elif not live and entry.connected:
            left_at = _instant(until[entry.pk]) if entry.pk in until else now
            changes.append((entry, GONE, left_at))
        if not live:
            gone_since[entry.pk] = left_at or race.started_at or now
    if race.status == Race.RUNNING and race.mode in RACING:
        for entry in entries:
            since = gone_since.get(entry.pk)
            if since is not None and not entry.done and since + grace <= now:
                changes.append((entry, ABANDONED, since + grace))
    return Review(changes, _new_host(race, entries, gone_since, now - grace))


def _new_host(race, entries, gone_since, cutoff):
    if race.status not in (Race.LOBBY, Race.COUNTDOWN) or not race.host_key:
        return None
    host = next((e for e in entries if e.player_key == race.host_key), None)
    if host is not None and not (host.pk in gone_since and gone_since[host.pk] <= cutoff):
        return None
    if host is None and race.created_at > cutoff:
        return None
    waiting = [e for e in entries if e.pk not in gone_since]
    return min(waiting, key=lambda e: (e.joined_at, e.pk), default=None)


def apply(race, now, number):
    """Make the review's changes to `race` (locked) and return their frames, each
    numbered by `number(race, frame)`."""
    entries = list(race.entries.all())
    found = review(race, entries, presence.present_until([race.room])[0], now)
    out = []
    for entry, change, when in found.changes:
        if change == ABANDONED:
            entry.status, entry.finished_at = Entry.ABANDONED, when
            entry.save(update_fields=["status", "finished_at"])
            move_log.pack([entry], race)
            out.append(number(race, frames.progress(entry, None, "abandon", [])))
            continue
        entry.connected = change == BACK
        entry.left_at = None if entry.connected else when
        entry.save(update_fields=["connected", "left_at"])
        frame = frames.player_joined(race, entry) if entry.connected else frames.player_left(entry)
        out.append(number(race, frame))
    if found.new_host is not None:
        race.host_key = found.new_host.player_key
        out.append(number(race, frames.host(found.new_host)))
    return out
