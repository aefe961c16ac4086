"""
Shared counters and marks: in Redis when REDIS_URL is set, so every process
sees the same ones; else in this process's memory (one process: development,
most tests). Request limits and socket leases (game/base/limits.py), presence
marks (game/base/presence.py) and solver claims (game/solver/claims.py) keep
theirs this way: each module has one store with two implementations of the
same few methods, and `PerUrl` picks which.
"""

import threading
from collections import defaultdict

from django.conf import settings


def redis_client(url):
    """A Redis client that gives up in 2 s: a stalled Redis must not stall a frame."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def set_scores(client, scores, keep_s, existing_only=False):
    """Set members' scores in Redis sorted sets, each set kept `keep_s` seconds more, in
    one round trip: `scores` is [(key, member, score)]; `existing_only` leaves out a
    member not already in its set."""
    by_key = defaultdict(dict)
    for key, member, score in scores:
        by_key[key][member] = score
    pipe = client.pipeline(transaction=False)
    for key, members in by_key.items():
        pipe.zadd(key, members, xx=existing_only)
        pipe.expire(key, max(1, round(keep_s)))
    pipe.execute()


class PerUrl:
    """`store()`: one store per REDIS_URL (settings may change in tests), made on first use."""

    def __init__(self, in_redis, in_memory):
        self.in_redis, self.in_memory = in_redis, in_memory
        self.stores = {}
        self.lock = threading.Lock()

    def __call__(self):
        url = settings.REDIS_URL
        with self.lock:
            if url not in self.stores:
                self.stores[url] = self.in_redis(url) if url else self.in_memory()
            return self.stores[url]

    def clear(self):
        with self.lock:
            self.stores.clear()
