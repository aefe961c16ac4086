"""
Limits per player and per client address, shared by every server process.

A fresh session is free, so a limit per session alone stops nobody; a limit
per process is multiplied by the processes. Each limited request therefore
counts against its player (session's player key) and its client address, in
Redis (REDIS_URL) where all processes see the same counts; without Redis
(one process: development, most tests) in this process's memory.

A limit is a setting "count/seconds", counted in fixed windows: at most
`count` requests in each window of `seconds` (a burst at a window's edge can
reach twice that, briefly; what matters is that no identity gets more).

The client address is game/base/clients.py's, the one rule for it.

Sockets: at most HALFMOON_SOCKETS_PER_SESSION open at once per session and
HALFMOON_SOCKETS_PER_ADDRESS per address. Each open socket holds a lease (a
member of a Redis sorted set, scored by when it runs out) that its close
gives back and its process's heartbeat renews (`renew_sockets`); a lease of a
process that died runs out HALFMOON_PRESENCE_TTL_S after its last renewal, as
its players' presence marks do, so a crash does not hold its sockets' places.
"""

import threading
import time
from collections import defaultdict

from django.conf import settings

# scope_address: the consumer takes a socket's address from here, beside its limits.
from game.base.clients import request_address, scope_address  # noqa: F401
from game.base.errors import GameError
from game.base.stores import PerUrl, redis_client, set_scores

LIMITS = {
    # name: (per player, per address) settings
    "create": ("HALFMOON_CREATE_LIMIT", "HALFMOON_CREATE_ADDRESS_LIMIT"),
    "poll": ("HALFMOON_POLL_LIMIT", "HALFMOON_POLL_ADDRESS_LIMIT"),
    "signup": (None, "HALFMOON_SIGNUP_ADDRESS_LIMIT"),
    "event_guest": (None, "HALFMOON_EVENT_GUEST_ADDRESS_LIMIT"),
    "read": ("HALFMOON_READ_LIMIT", "HALFMOON_READ_ADDRESS_LIMIT"),
    "social": ("HALFMOON_SOCIAL_LIMIT", "HALFMOON_SOCIAL_ADDRESS_LIMIT"),
    "unknown_socket": (None, "HALFMOON_UNKNOWN_SOCKET_ADDRESS_LIMIT"),
}
_held = {}
"""This process's socket leases: member -> its keys (renewed by the heartbeat)."""
_held_lock = threading.Lock()


def _lease_s():
    return settings.HALFMOON_PRESENCE_TTL_S


def parse(limit):
    """ "30/60" -> (30, 60): at most 30 in each 60 s."""
    count, seconds = limit.split("/")
    return int(count), int(seconds)


# --- counting -------------------------------------------------------------------------


class MemoryCounts:
    def __init__(self):
        self.counts = {}
        self.leases = defaultdict(dict)
        self.lock = threading.Lock()

    def hit(self, key, seconds):
        with self.lock:
            if len(self.counts) > 100_000:
                self.counts.clear()
            self.counts[key] = self.counts.get(key, 0) + 1
            return self.counts[key]

    def lease(self, keys, member, now, limits):
        with self.lock:
            for key in keys:
                live = {m: until for m, until in self.leases[key].items() if until > now}
                self.leases[key] = live
            if any(len(self.leases[key]) >= limit for key, limit in zip(keys, limits, strict=True)):
                return False
            for key in keys:
                self.leases[key][member] = now + _lease_s()
            return True

    def renew(self, held, until):
        with self.lock:
            for member, keys in held:
                for key in keys:
                    if member in self.leases[key]:
                        self.leases[key][member] = until

    def release(self, keys, member):
        with self.lock:
            for key in keys:
                self.leases[key].pop(member, None)


class RedisCounts:
    # Take a lease only if every set has room: one script, so two processes
    # opening sockets at once cannot both take the last place.
    LEASE = """
    for i, key in ipairs(KEYS) do
      redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
      if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return 0 end
    end
    for i, key in ipairs(KEYS) do
      redis.call('ZADD', key, ARGV[3], ARGV[1])
      redis.call('EXPIRE', key, ARGV[#KEYS + 4])
    end
    return 1
    """

    def __init__(self, url):
        self.client = redis_client(url)
        self.lease_script = self.client.register_script(self.LEASE)

    def hit(self, key, seconds):
        pipe = self.client.pipeline(transaction=True)
        pipe.incr(key)
        pipe.expire(key, seconds + 1, nx=True)
        return pipe.execute()[0]

    def lease(self, keys, member, now, limits):
        lease_s = _lease_s()
        args = [member, now, now + lease_s, *limits, max(1, round(lease_s))]
        return bool(self.lease_script(keys=keys, args=args))

    def renew(self, held, until):
        leases = [(key, member, until) for member, keys in held for key in keys]
        set_scores(self.client, leases, _lease_s(), existing_only=True)

    def release(self, keys, member):
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.zrem(key, member)
        pipe.execute()


_store = PerUrl(RedisCounts, MemoryCounts)


def _hit(name, kind, who, limit):
    count, seconds = parse(limit)
    window = int(time.time() // seconds)
    if _store().hit(f"limit:{name}:{kind}:{who}:{window}", seconds) > count:
        raise GameError("rate_limited", "too many requests; wait a little")


def spend(request, name, player_key=None):
    """One request against limit `name`, for its player (when given) and its address:
    GameError `rate_limited` when either has had its count in this window."""
    player_setting, address_setting = LIMITS[name]
    if player_key is not None and player_setting:
        _hit(name, "player", player_key, getattr(settings, player_setting))
    spend_address(request_address(request), name)


def spend_address(address, name):
    """One request against limit `name` for the client `address` alone (a socket's:
    `scope_address`): GameError `rate_limited` when it has had its count."""
    _hit(name, "address", address, getattr(settings, LIMITS[name][1]))


# --- sockets --------------------------------------------------------------------------


def _socket_keys(session_key, client):
    return [f"sockets:session:{session_key}", f"sockets:address:{client}"]


def open_socket(session_key, client, socket):
    """Take socket id `socket`'s place for its session and address: GameError when either
    is full."""
    limits = [settings.HALFMOON_SOCKETS_PER_SESSION, settings.HALFMOON_SOCKETS_PER_ADDRESS]
    keys = _socket_keys(session_key, client)
    if not _store().lease(keys, socket, time.time(), limits):
        raise GameError("too_many_sockets", "too many open sockets; close a tab")
    with _held_lock:
        _held[socket] = keys


def close_socket(session_key, client, socket):
    with _held_lock:
        _held.pop(socket, None)
    _store().release(_socket_keys(session_key, client), socket)


def renew_sockets():
    """Keep this process's open sockets' leases from running out (the heartbeat's job)."""
    with _held_lock:
        held = list(_held.items())
    if held:
        _store().renew(held, time.time() + _lease_s())
