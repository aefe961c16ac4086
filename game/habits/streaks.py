"""
The daily streak and its freezes, computed on read from a player's days.

A streak counts daily deals won on consecutive UTC days. A day played and not won
ends it. A day missed (no attempt at all) ends it too, unless the player holds a
freeze: one is spent automatically, and the streak goes on without counting that
day (a freeze is never a day played). A freeze is earned by every FREEZE_EVERY days
of streak, and at most FREEZES_HELD are held; held freezes outlive a broken streak.

Computed on read rather than by a daily job: a player's days are one indexed read,
the walk is one step a day since the first win, and a function of the days alone
cannot spend a freeze twice (nothing to keep idempotent). Today counts only once
played: until then it is not missed.
"""

import datetime
from dataclasses import dataclass, field

FREEZE_EVERY = 7
"""Days of streak that earn one freeze."""
FREEZES_HELD = 2
"""Freezes a player may hold at once."""
ONE_DAY = datetime.timedelta(days=1)


@dataclass
class Streak:
    """Where a player's streak stands: `current` days won in a row (today's included
    once won), `best` ever, `held` freezes to spend, `used` freezes spent within the
    current streak, and the days a freeze bridged (`frozen`, every streak's)."""

    current: int = 0
    best: int = 0
    held: int = 0
    used: int = 0
    frozen: list = field(default_factory=list)

    def won(self):
        self.current += 1
        self.best = max(self.best, self.current)
        if self.current % FREEZE_EVERY == 0:
            self.held = min(FREEZES_HELD, self.held + 1)

    def missed(self, date):
        if self.current and self.held:
            self.held -= 1
            self.used += 1
            self.frozen.append(date)
        else:
            self.lost()

    def lost(self):
        self.current = self.used = 0


def streak(played, won, today):
    """The `Streak` of a player who played the days in `played` and won those in `won`
    (sets of dates; `won` within `played`), as of `today`."""
    state = Streak()
    if not won:
        return state
    played = set(played) | set(won)
    date, last = min(won), max(max(played), today)
    while date <= last:
        if date in won:
            state.won()
        elif date in played:
            state.lost()
        elif date < today:
            state.missed(date)
        date += ONE_DAY
    return state
