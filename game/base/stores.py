"""
Shared counters and marks: in Redis when REDIS_URL is set, so every process
sees the same ones; else in this process's memory (one process: development,
most tests). Request limits and socket leases (game/base/limits.py), presence
marks (game/base/presence.py) and solver claims (game/solver/claims.py) keep
theirs this way: each module has one store with two implementations of the
same few methods, and `PerUrl` picks which.
"""

import threading

from django.conf import settings


def redis_client(url):
    """A Redis client that gives up in 2 s: a stalled Redis must not stall a frame."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


SET_SCORES = """
local keep, existing_only, kept = ARGV[1], ARGV[2] == '1', {}
for i, key in ipairs(KEYS) do
  if existing_only then
    redis.call('ZADD', key, 'XX', ARGV[2 * i + 1], ARGV[2 * i + 2])
  else
    redis.call('ZADD', key, ARGV[2 * i + 1], ARGV[2 * i + 2])
  end
  if not kept[key] then
    redis.call('EXPIRE', key, keep)
    kept[key] = true
  end
end
"""


def set_scores(client, scores, keep_s, existing_only=False):
    """Set members' scores in Redis sorted sets, each set kept `keep_s` seconds more, in
    one command: `scores` is [(key, member, score)]; `existing_only` leaves out a
    member not already in its set. One script, not a pipeline of a ZADD and an EXPIRE
    a set: a heartbeat renews a process's every socket at once, and 1,400 commands
    cost its thread 11 ms of packing and parsing, the script 0.8 ms (with hiredis;
    docs/performance.md, "The heartbeat's Redis")."""
    if not scores:
        return
    args = [max(1, round(keep_s)), int(existing_only)]
    for _, member, score in scores:
        args += (score, member)
    client.register_script(SET_SCORES)(keys=[key for key, _, _ in scores], args=args)


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
