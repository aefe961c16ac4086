"""
Twisted's TCP writes sent at once (halfmoon_site/eager_writes.py): on a real socket
pair, a small frame is on the wire before the event loop turns, and whatever the
socket cannot take waits in Twisted's queue, with everything written after it
behind it, so a slow reader still gets every byte in order; a connection that started
TLS in place writes through its TLS layer, never in clear.
"""

import socket

import pytest
from twisted.internet import tcp

from halfmoon_site import eager_writes


class Watches:
    """A stand-in for the reactor: which connections want to be told they may write."""

    def __init__(self):
        self.writers = set()

    def addWriter(self, writer):  # noqa: N802 - Twisted's interface
        self.writers.add(writer)

    def removeWriter(self, writer):  # noqa: N802 - Twisted's interface
        self.writers.discard(writer)


@pytest.fixture
def link(monkeypatch):
    """(connection writing eagerly, the peer socket, the reactor's watch list)."""
    monkeypatch.setattr(tcp.Connection, "write", tcp.Connection.write)  # undone after
    eager_writes.install()
    ours, peer = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    peer.settimeout(2)  # a byte that never comes fails the test instead of hanging it
    watches = Watches()
    connection = tcp.Connection(ours, protocol=None, reactor=watches)
    connection.connected = True
    yield connection, peer, watches
    ours.close()
    peer.close()


def read_all(peer, size):
    data = b""
    while len(data) < size:
        data += peer.recv(65536)
    return data


def test_a_frame_is_on_the_wire_without_waiting_for_the_loop(link):
    connection, peer, watches = link
    connection.write(b"a race frame")
    assert read_all(peer, 12) == b"a race frame"
    assert not watches.writers  # nothing queued: the loop was not asked to watch


def test_what_the_socket_cannot_take_waits_and_later_writes_queue_behind_it(link):
    connection, peer, watches = link
    big = bytes(range(256)) * 4096  # 1 MiB, far more than the socket's buffer
    connection.write(big)
    assert watches.writers == {connection}  # the rest waits for the loop
    connection.write(b"the next frame")  # must not overtake the rest of `big`
    received = b""
    while connection.dataBuffer or connection._tempDataBuffer:
        received += peer.recv(65536)
        connection.doWrite()
    received += read_all(peer, len(big) + 14 - len(received))
    assert received == big + b"the next frame"
    assert not watches.writers


def test_a_closing_connection_writes_the_queued_way(link):
    connection, peer, watches = link
    connection.disconnecting = True
    connection.write(b"last words")
    assert watches.writers == {connection}
    connection.doWrite()
    assert read_all(peer, 10) == b"last words"


def test_a_connection_that_started_tls_writes_through_its_tls_layer(link):
    connection, peer, _ = link

    class TLSLayer:
        def __init__(self):
            self.written = []

        def write(self, data):
            self.written.append(data)

    connection.TLS, connection.protocol = True, TLSLayer()
    connection.write(b"not for the wire in clear")
    assert connection.protocol.written == [b"not for the wire in clear"]
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):  # the eager write would have sent it by now
        peer.recv(1)
