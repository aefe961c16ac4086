"""
Who is at the table: every live socket of a player keeps a mark that runs out.

A count of open sockets leaks whenever a socket dies without `disconnect()`: a
process killed or stopped (daphne runs no `disconnect()` then), a close code
the server stack refuses, a consumer cancelled under load. A mark cannot leak:
the socket's process refreshes it every settings.HALFMOON_HEARTBEAT_S, and a
mark nobody refreshes runs out HALFMOON_PRESENCE_TTL_S after its last refresh,
whatever happened to the socket. A clean close ends the mark at once.

The marks of a race are one Redis sorted set (member "entry:socket", score =
the instant the mark runs out), so every process sees every socket; without
Redis (one process: development, most tests) they live in this process.
"""

import threading
import time
from collections import defaultdict

from django.conf import settings

from game.base.stores import PerUrl, redis_client, set_scores

KEEP_S = 6 * 3600
"""How long a race's marks are kept after the last write (its time limit and more)."""


def _key(room):
    return f"presence:{room}"


def _member(entry_id, socket):
    return f"{entry_id}:{socket}"


class MemoryMarks:
    def __init__(self):
        self.rooms = defaultdict(dict)
        self.lock = threading.Lock()

    def set(self, marks):
        with self.lock:
            for room, member, until in marks:
                self.rooms[room][member] = until

    def read(self, rooms):
        with self.lock:
            return [dict(self.rooms.get(room, {})) for room in rooms]


READ_MARKS = """
local found = {}
for i, key in ipairs(KEYS) do found[i] = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES') end
return found
"""
"""Every room's marks in one command (a heartbeat reads every race in play at once)."""


class RedisMarks:
    def __init__(self, url):
        self.client = redis_client(url)
        self.read_script = self.client.register_script(READ_MARKS)

    def set(self, marks):
        set_scores(
            self.client, [(_key(room), member, until) for room, member, until in marks], KEEP_S
        )

    def read(self, rooms):
        if not rooms:
            return []
        found = self.read_script(keys=[_key(room) for room in rooms])
        return [
            {
                member.decode(): float(until)
                for member, until in zip(flat[::2], flat[1::2], strict=True)
            }
            for flat in found
        ]


_store = PerUrl(RedisMarks, MemoryMarks)


def refresh(sockets):
    """Keep these sockets' marks alive: [(room, entry id, socket name)]."""
    until = time.time() + settings.HALFMOON_PRESENCE_TTL_S
    marks = [(room, _member(entry_id, socket), until) for room, entry_id, socket in sockets]
    if marks:
        _store().set(marks)


def end(room, entry_id, socket):
    """A socket closed cleanly: its mark runs out now."""
    _store().set([(room, _member(entry_id, socket), time.time())])


def present_until(rooms):
    """For each room, {entry id: the instant its last mark runs out} (epoch seconds)."""
    found = []
    for marks in _store().read(rooms):
        until = {}
        for member, instant in marks.items():
            entry_id = int(member.split(":", 1)[0])
            until[entry_id] = max(instant, until.get(entry_id, 0.0))
        found.append(until)
    return found
