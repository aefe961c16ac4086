"""
One solve per question across server processes: a claim on the question and,
once solved, its answer, in the shared store (Redis with REDIS_URL, where every
process sees them; else this process's memory: one process).

The first process asked a question no one has claimed claims it for
`CLAIM_S` and starts the solve in its solver pool; the others answer
"computing" meanwhile. The process that ran the solve puts the answer beside
the claim as soon as its pool has it (`put`, from the pool's callback thread),
so whichever process a client polls next finds it: a client whose polls land on
another process than its first ask does not start a second solve. A claim of a
process that died runs out after `CLAIM_S`, and then another process may solve.
"""

import json
import threading
import time

from game.base.stores import PerUrl, redis_client

CLAIM_S = 120
"""Longer than a line's solves (a few positions, one budget each) and the queue before them."""
ANSWER_S = 600
"""An answer waits this long for a process to store it."""


class MemoryClaims:
    def __init__(self):
        self.items = {}  # key -> (value, until)
        self.lock = threading.Lock()

    def _live(self, key, now):
        value, until = self.items.get(key, (None, 0))
        return value if until > now else None

    def claim(self, key, seconds):
        with self.lock:
            now = time.monotonic()
            if self._live(f"claim:{key}", now) is not None:
                return False
            if len(self.items) > 10_000:
                self.items = {k: item for k, item in self.items.items() if item[1] > now}
            self.items[f"claim:{key}"] = (True, now + seconds)
            return True

    def release(self, key):
        with self.lock:
            self.items.pop(f"claim:{key}", None)

    def put(self, key, answer, seconds=ANSWER_S):
        with self.lock:
            self.items[f"answer:{key}"] = (json.dumps(answer), time.monotonic() + seconds)

    def answer(self, key):
        with self.lock:
            found = self._live(f"answer:{key}", time.monotonic())
        return None if found is None else json.loads(found)


class RedisClaims:
    def __init__(self, url):
        self.client = redis_client(url)

    def claim(self, key, seconds):
        return bool(self.client.set(f"claim:{key}", 1, nx=True, ex=seconds))

    def release(self, key):
        self.client.delete(f"claim:{key}")

    def put(self, key, answer, seconds=ANSWER_S):
        self.client.set(f"answer:{key}", json.dumps(answer), ex=seconds)

    def answer(self, key):
        found = self.client.get(f"answer:{key}")
        return None if found is None else json.loads(found)


store = PerUrl(RedisClaims, MemoryClaims)
"""`store()`: the claims of this REDIS_URL."""
