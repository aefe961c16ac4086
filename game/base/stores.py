"""
Shared counters and marks: in Redis when REDIS_URL is set, so every process
sees the same ones; else in this process's memory (one process: development,
most tests). Presence marks and request limits both keep theirs this way.
"""

import threading

from django.conf import settings


def redis_client(url):
    """A Redis client that gives up in 2 s: a stalled Redis must not stall a frame."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


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
