"""
Values a process keeps in memory for about a second and builds again once they are
older: the parts of a page every reader sees (game/daily/shared_day.py,
game/events/shared_standings.py), read at a crowd's arrival by nearly every request.
A reader finds its value with no round trip; the first reader after it is `age_s` old
builds it again while readers of the same value wait for it rather than build it too.
Its age counts from before it was built, so nothing shown is older than `age_s` plus
one build.
"""

import threading
import time


def clock():
    """Seconds on a clock that never goes back (tests move it)."""
    return time.monotonic()


class Kept:
    """Values by key, each kept `age_s` seconds; at most `most` keys (the oldest built
    go first)."""

    def __init__(self, age_s, most):
        self.age_s, self.most = age_s, most
        self.values = {}
        """key -> (value, when it was built)."""
        self.lock = threading.Lock()

    def get(self, key, build):
        """The value kept for `key`, or `build()`'s, kept from now on."""
        found = self.values.get(key)
        if self._fresh(found):
            return found[0]
        with self.lock:
            found = self.values.get(key)
            if not self._fresh(found):  # another thread may have built it meanwhile
                built_at = clock()
                found = (build(), built_at)
                self.values.pop(key, None)
                while len(self.values) >= self.most:
                    del self.values[next(iter(self.values))]
                self.values[key] = found
            return found[0]

    def forget(self):
        """Drop every value: the next reader builds its own (a decision that must show
        at once, and tests, whose databases are rolled back under them)."""
        self.values.clear()

    def _fresh(self, found):
        return found is not None and clock() - found[1] < self.age_s
