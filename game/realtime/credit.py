"""
A token bucket: how often one client may do something.

A socket spends one credit per frame (settings.HALFMOON_FRAME_BURST at once,
HALFMOON_FRAME_RATE a second after), and game/realtime/admission.py keeps one
more per session and per client address, in each process. A socket that floods
is closed, since answering a flood frame by frame would let one socket keep the
process busy. (HTTP requests are limited by game/base/limits.py instead: counts
in fixed windows, shared by every process.)
"""

import time

_clock = time.monotonic


class Credit:
    def __init__(self, rate, burst):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = _clock()

    def spend(self):
        now = _clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
