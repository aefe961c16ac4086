"""
A daphne websocket in-process, open and accepted, on a transport that keeps what it
is sent, and the bytes of the frames a browser sends: for the tests and the
microbenchmark of what the server does with a client's frame
(halfmoon_site/fast_frames.py), without a reactor, a socket or an application.
"""

from dataclasses import dataclass, field

from autobahn.twisted.websocket import WebSocketServerFactory
from daphne.ws_protocol import WebSocketFactory
from twisted.internet.testing import StringTransport

HANDSHAKE = (
    b"GET /ws/race/ABCD/ HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n"
)
MASK = b"\x5a\xc3\x0f\x96"


class Transport(StringTransport):
    """Keeps what is written; like a TCP connection, lets go of no producer quietly
    (autobahn does when it drops a connection it failed)."""

    def unregisterProducer(self):  # noqa: N802 - Twisted's interface
        self.producer = None


class ApplicationQueue(list):
    """What daphne puts on the application's queue, in order."""

    put_nowait = list.append


@dataclass
class StubServer:
    """The parts of daphne's Server that a websocket calls."""

    queue: ApplicationQueue = field(default_factory=ApplicationQueue)
    root_path: str = ""
    proxy_forwarded_address_header: None = None

    def protocol_connected(self, protocol):
        pass

    def protocol_disconnected(self, protocol):
        pass

    def create_application(self, protocol, scope):
        return self.queue

    def log_action(self, *details):
        pass


def open_socket(transport=None, **options):
    """(daphne's protocol, open and accepted, its application queue, its transport).

    `options` are autobahn's protocol options over daphne's; connections are closed,
    not dropped, on failure (failByDrop=False, as halfmoon_site/asgi.py sets)."""
    server = StubServer()
    factory = WebSocketFactory(server, server="daphne")
    options = {
        "allowNullOrigin": True,
        "maxMessagePayloadSize": 2**20,
        "maxFramePayloadSize": 0,
        "failByDrop": False,
        "openHandshakeTimeout": 0,  # no timer: there is no reactor running
        "closeHandshakeTimeout": 0,
        **options,
    }
    WebSocketServerFactory.setProtocolOptions(factory, **options)
    protocol = factory.buildProtocol(None)
    protocol._raw_query_string = b""  # daphne's HTTP side sets it before the upgrade
    transport = transport or Transport()
    protocol.makeConnection(transport)
    protocol.dataReceived(HANDSHAKE)
    protocol.serverAccept()
    assert protocol.state == protocol.STATE_OPEN
    del server.queue[:]  # websocket.connect
    transport.clear()  # the handshake's answer
    return protocol, server.queue, transport


def client_frame(payload, opcode=1, fin=True, rsv=0, mask=MASK, length_form=None):
    """The bytes of a frame a client sends: masked with `mask` (None: unmasked), its
    length in the shortest form or in `length_form` (7, 16 or 64 bits)."""
    size = len(payload)
    length_form = length_form or (7 if size < 126 else 16 if size < 2**16 else 64)
    first = (0x80 if fin else 0) | rsv << 4 | opcode
    masked = 0x80 if mask else 0
    if length_form == 7:
        head = bytes([first, masked | size])
    elif length_form == 16:
        head = bytes([first, masked | 126]) + size.to_bytes(2, "big")
    else:
        head = bytes([first, masked | 127]) + size.to_bytes(8, "big")
    if not mask:
        return head + payload
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
