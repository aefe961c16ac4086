"""
A text frame for a client leaves in one write, without autobahn's per-frame machinery.

Every frame the application sends went from daphne's `Server.handle_reply` through its
websocket's `handle_reply` and `serverSend` (the text encoded) to autobahn's
`sendMessage`, `sendFrame` (its header built a bit at a time, the parts joined) and
`sendData`, each checking options a server here never sets: 11 % of a daphne
process's samples at 1,400 players, where the write itself is 2.4 % (py-spy --gil,
bench/openloop.py). A move makes four such frames: `moved`, and `progress` to three
opponents.

So daphne's reply takes the common case itself: a `websocket.send` of text alone, to a
connection daphne still holds and autobahn has open with nothing queued, compressed,
fragmented, masked, logged or timed, within the message size. The header and the
payload go to the transport in one write, and autobahn's traffic counters count the
frame as autobahn counts it. Everything else (an accept, a close, bytes, a socket
closing, a queue behind a slow reader...) goes daphne's way, unchanged;
tests/deploy/test_fast_sends.py holds the bytes written and the counters to
autobahn's, case by case. bench/frame_send.py times both ways.
"""

from daphne.server import Server

_daphne_reply = Server.handle_reply

FINAL_TEXT = 0x81  # FIN set, no reserved bits, opcode 1 (text)
LENGTH_IN_16_BITS, LENGTH_IN_64_BITS = 126, 127
LONGEST_7_BIT, LONGEST_16_BIT = 125, 0xFFFF


async def _reply(self, protocol, message):
    """daphne's Server.handle_reply: a plain text frame here, anything else daphne's."""
    text = message.get("text") if message.get("type") == "websocket.send" else None
    if type(text) is not str or message.get("bytes"):
        return await _daphne_reply(self, protocol, message)
    if not _send_plain(self.connections.get(protocol), protocol, text):
        return await _daphne_reply(self, protocol, message)
    return None


def _send_plain(connection, protocol, text):
    """`text` written at once as a plain frame (True), or left to daphne (False);
    `connection` is daphne's record of the protocol (None once it dropped it)."""
    if not text:
        return False
    payload = text.encode()
    if not _autobahn_sends_plainly(protocol, len(payload)):
        return False
    if connection is None or connection.get("disconnected"):
        return True  # as daphne: nothing goes to a connection it no longer holds
    send_text(protocol, payload)
    return True


def sender(send):
    """For daphne's `send` of one connection (the application's, made by its server):
    `now(text)` that sends a text as `send` would, but at once, without a coroutine
    (True), or says it must go `send`'s way (False, nothing written). None for any
    other `send` (a test's, or daphne's without `install`)."""
    method = getattr(send, "func", None)
    if getattr(method, "__func__", None) is not _reply or len(send.args) != 1 or send.keywords:
        return None
    protocol = send.args[0]
    # daphne's record of the connection, looked up once: daphne marks it "disconnected"
    # when the socket goes and only forgets it afterwards, so it says what a lookup would.
    connection = method.__self__.connections.get(protocol)
    return lambda text: type(text) is str and _send_plain(connection, protocol, text)


def _autobahn_sends_plainly(protocol, length):
    """Whether autobahn would send a text of `length` bytes as one unmasked final frame
    written at once, doing nothing else but count it."""
    return (
        protocol.state == protocol.STATE_OPEN
        and not protocol.send_queue
        and protocol._perMessageCompress is None
        and not protocol.trackedTimings
        and not protocol.logFrames
        and not protocol.logOctets
        and not protocol.maskServerFrames
        and not 0 < protocol.maxMessagePayloadSize < length
        and not 0 < protocol.autoFragmentSize < length
    )


def send_text(protocol, payload):
    """`payload` (UTF-8) as one final text frame, counted as autobahn counts it."""
    length = len(payload)
    if length <= LONGEST_7_BIT:
        header = bytes((FINAL_TEXT, length))
    elif length <= LONGEST_16_BIT:
        header = bytes((FINAL_TEXT, LENGTH_IN_16_BITS)) + length.to_bytes(2)
    else:
        header = bytes((FINAL_TEXT, LENGTH_IN_64_BITS)) + length.to_bytes(8)
    stats = protocol.trafficStats
    stats.outgoingWebSocketMessages += 1
    stats.outgoingOctetsAppLevel += length
    stats.outgoingOctetsWebSocketLevel += length
    stats.outgoingWebSocketFrames += 1
    protocol.transport.write(header + payload)
    stats.outgoingOctetsWireLevel += len(header) + length


def install():
    """Make every daphne websocket of this process send plain text frames itself (idempotent)."""
    Server.handle_reply = _reply
