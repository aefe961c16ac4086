"""
A socket's bytes go out when they are written, not on the event loop's next turn.

Twisted's TCP transport queues every write and asks the loop to watch the socket
for writability, then sends on the next turn and stops watching: two changes of
the loop's watch list and one more turn for every frame. A race frame is a few
hundred bytes that the kernel takes at once, so this sends it straight away
when nothing is queued before it; whatever the socket does not take (a slow
reader, a full buffer) or any error goes Twisted's own way, queued behind, and so
does everything on a connection that started TLS in place (its bytes must go through
the TLS layer; daphne's TLS wraps the protocol instead, so its writes are eager). At
1,000 players the watch list's changes alone were 9 % of a process's CPU
(py-spy, bench/openloop.py).
"""

from twisted.internet import tcp

_queued_write = tcp.Connection.write


def _write_now(self, data):
    if (
        self.connected
        and not self.TLS
        and not self.disconnecting
        and not self._writeDisconnected
        and not self.dataBuffer
        and not self._tempDataBuffer
        and isinstance(data, bytes)
    ):
        try:
            sent = self.socket.send(data)
        except OSError:  # would block, or a fault that the queued write meets and reports
            sent = 0
        if sent == len(data):
            return
        data = data[sent:]
    _queued_write(self, data)


def install():
    """Make every TCP connection of this process write at once (idempotent)."""
    tcp.Connection.write = _write_now
