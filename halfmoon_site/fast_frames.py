"""
A client's small text frames reach daphne without autobahn's per-frame machinery.

autobahn reads every frame through a chain of a dozen calls (`processData` twice,
`onFrameBegin`/`Data`/`End`, the message and frame hooks, a new C masker, the
incremental UTF-8 validator, an event fired to no listener...) before daphne's
`onMessage` puts the text on the application's queue: 17-20 µs for a move's frame
of 38 bytes, where sending a frame costs 2.6 µs. Server CPU per move was 0.53 ms
against 0.36 ms for a plain `websockets` server (py-spy, bench/openloop.py).

So daphne's socket takes the common case itself: the connection is open, autobahn
holds nothing of a frame or message, nothing is compressed, logged or timed, and
the bytes begin with whole text frames, final, masked, no reserved bits, at most
64 KiB - 1 and within daphne's frame and message limits, of valid UTF-8. Each is
unmasked with one integer XOR and given to daphne's own `onMessage` through
autobahn's `_onMessage` hook, as autobahn would, with autobahn's traffic counters
kept. Everything from the first byte that is not such a frame (a ping, a close, a
binary or fragmented or oversize frame, invalid UTF-8, a frame cut by the chunk's
end) goes autobahn's way unchanged, in order, so 1007, 1009 and every protocol
error close as before (tests/deploy/test_fast_frames.py holds it to autobahn's
answers). A move costs 3.0 µs instead of 17.4 µs, three moves in one read 2.7 µs
each, a 2 KiB text 9.3 µs instead of 20.4 (bench/frame_receive.py, the same run).
"""

from autobahn.twisted.websocket import WebSocketServerProtocol
from daphne.ws_protocol import WebSocketProtocol

_autobahn_received = WebSocketServerProtocol.dataReceived

FINAL_TEXT = 0x81  # FIN set, no reserved bits, opcode 1 (text)
MASKED = 0x80
LENGTH_IN_16_BITS = 126
LONGEST_16_BIT = 0xFFFF


def _received(self, data):
    """daphne's WebSocketProtocol.dataReceived: whole text frames here, the rest autobahn's."""
    taken = _take_text_frames(self, data) if _autobahn_is_idle(self) else 0
    if taken < len(data):
        _autobahn_received(self, data[taken:] if taken else data)


def _autobahn_is_idle(protocol):
    """Whether autobahn holds no part of a frame or message and would do to a whole
    text frame nothing but unmask it, check it and hand it to `_onMessage`."""
    return (
        protocol.state == protocol.STATE_OPEN
        and not protocol.data
        and protocol.current_frame is None
        and not protocol.inside_message
        and not protocol.failedByMe
        and protocol._perMessageCompress is None
        and protocol.applyMask
        and protocol.utf8validateIncoming
        and not protocol.logOctets
        and not protocol.logFrames
        and not protocol.trackedTimings
        and protocol.autoPingTimeoutCall is None  # a data frame would cancel it
        and protocol._listeners is None  # no one to fire the "message" event to
    )


def _take_text_frames(protocol, data):
    """Hand on the whole text frames at the start of `data`; how many bytes they took."""
    largest = _largest_text(protocol)
    taken = octets = frames = 0
    while True:
        frame = _text_frame_at(data, taken, largest)
        if frame is None:
            break
        payload, taken = frame
        octets += len(payload)
        frames += 1
        protocol._onMessage(payload, False)
        if taken == len(data) or not _autobahn_is_idle(protocol):
            break
    stats = protocol.trafficStats  # what autobahn counts of the same frames
    stats.incomingOctetsWireLevel += taken
    stats.incomingOctetsWebSocketLevel += octets
    stats.incomingOctetsAppLevel += octets
    stats.incomingWebSocketFrames += frames
    stats.incomingWebSocketMessages += frames
    return taken


def _largest_text(protocol):
    """The longest payload taken here: 16-bit lengths, within daphne's limits (0: none)."""
    largest = LONGEST_16_BIT
    for limit in (protocol.maxMessagePayloadSize, protocol.maxFramePayloadSize):
        if 0 < limit < largest:
            largest = limit
    return largest


def _text_frame_at(data, start, largest):
    """(UTF-8 payload, where the frame ends) of the whole final masked text frame at
    `start`, or None for anything else, a frame cut short or one autobahn would refuse."""
    if len(data) < start + 6 or data[start] != FINAL_TEXT:
        return None
    length = data[start + 1] - MASKED  # negative: not masked
    mask_at = start + 2
    if length == LENGTH_IN_16_BITS:
        length = int.from_bytes(data[mask_at : mask_at + 2])
        mask_at += 2
        if length < LENGTH_IN_16_BITS:  # not the shortest encoding: autobahn fails it
            return None
    elif length > LENGTH_IN_16_BITS or length < 0:
        return None
    end = mask_at + 4 + length
    if length > largest or end > len(data):
        return None
    payload = unmasked(data[mask_at + 4 : end], data[mask_at : mask_at + 4])
    try:
        payload.decode()
    except UnicodeDecodeError:
        return None
    return payload, end


def unmasked(payload, mask):
    """`payload` XORed with the 4-byte `mask` repeated, as one big integer: 0.5 µs for
    a move, where autobahn's C masker (through cffi) takes 3.9."""
    length = len(payload)
    key = (mask * ((length >> 2) + 1))[:length]
    return (int.from_bytes(payload) ^ int.from_bytes(key)).to_bytes(length)


def install():
    """Make every daphne websocket of this process take whole text frames itself (idempotent)."""
    WebSocketProtocol.dataReceived = _received
