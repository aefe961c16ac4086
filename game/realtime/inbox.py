"""
`Inbox`: a socket's frames waiting for its worker, in order.

Every move a client sends passes through one: the socket's reader puts it, the
socket's worker takes it. asyncio's `Queue` does that with about a dozen Python
calls a frame (maxsize checks, a getters deque, unfinished-task counting, `join`'s
event) that a one-reader, unbounded hand-over never uses; here it is a deque and at
most one waiting future. The bound is the admission's (`admission.Gate.admit`
reads `qsize`), not the inbox's.
"""

import asyncio
import collections


class Inbox:
    """A first-in, first-out hand-over to one reader at a time."""

    def __init__(self):
        self.items = collections.deque()
        self.waiter = None
        """The reader's future while it waits on an empty inbox."""

    def put_nowait(self, item):
        self.items.append(item)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self):
        """The oldest item, once there is one."""
        while not self.items:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.items.popleft()

    def get_nowait(self):
        """The oldest item (IndexError when there is none)."""
        return self.items.popleft()

    def empty(self):
        return not self.items

    def qsize(self):
        return len(self.items)
