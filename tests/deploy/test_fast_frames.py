"""
A client's whole text frames taken by daphne's socket itself
(halfmoon_site/fast_frames.py): on real daphne websockets, every input ends exactly
as autobahn's own way ends it, compared side by side on two sockets fed the same
bytes in the same reads: the same texts on the application's queue in the same
order, the same bytes written back (a pong, a close with 1002, 1007 or 1009), the
same state, buffer and traffic counters. Single frames of every kind, several in
one read, a stream cut at every byte, and random mixes of fast and other frames.
"""

import random

import pytest
from daphne.ws_protocol import WebSocketProtocol

from game.testing.daphne_sockets import client_frame, open_socket
from halfmoon_site import fast_frames

MOVE = b'{"type":"move","seq":12,"slots":[3,7]}'
TEXTS = {
    "move": client_frame(MOVE),
    "empty": client_frame(b""),
    "accented": client_frame('{"name":"Zoë Brontë 🌙"}'.encode()),
    "125 bytes": client_frame(b"a" * 125),
    "126 bytes, 16-bit length": client_frame(b"b" * 126),
    "65535 bytes": client_frame(b"c" * 65535),
    # what follows a frame's first byte, or its header, reads as a whole empty text frame:
    "a letter whose mask reads as a header": client_frame(b"a", mask=b"\x80\x01\x02\x03"),
    "a text whose payload reads as a frame": client_frame(b"ABCDEF", mask=b"\xc0\xc2\x43\x44"),
}
OTHERS = {
    "65536 bytes, 64-bit length": client_frame(b"d" * 65536),
    "invalid UTF-8": client_frame(b'{"x":"\xff"}'),
    "UTF-8 cut in a code point": client_frame("é".encode()[:1]),
    "a surrogate": client_frame(b"\xed\xa0\x80"),
    "an overlong encoding": client_frame(b"\xc0\xaf"),
    "binary": client_frame(b"\x00\x01", opcode=2),
    "ping": client_frame(b"are you there", opcode=9),
    "pong": client_frame(b"", opcode=10),
    "a ping whose payload reads as a frame": client_frame(
        client_frame(b""), opcode=9, mask=b"\0\0\0\0"
    ),
    "close": client_frame((1000).to_bytes(2, "big") + b"bye", opcode=8),
    "fragment, then its end": client_frame(b"par", fin=False) + client_frame(b"t", opcode=0),
    "a lone continuation": client_frame(b"x", opcode=0),
    "a text inside a fragmented message": client_frame(b"par", fin=False) + client_frame(MOVE),
    "unmasked": client_frame(MOVE, mask=None),
    "a reserved bit": client_frame(MOVE, rsv=4),
    "a reserved opcode": client_frame(MOVE, opcode=3),
    "length not in its shortest form": client_frame(MOVE, length_form=16),
    "64-bit length of a short text": client_frame(MOVE, length_form=64),
    "over the message size (1009)": client_frame(b"e" * 1001),
    "over the frame size (1009)": client_frame(b"f" * 501),
}
LIMITS = {"maxMessagePayloadSize": 1000, "maxFramePayloadSize": 500}
"""Lower than daphne's, so that a frame over them stays small; TEXTS fit other sockets."""


def outcome(protocol, queue, transport):
    stats = protocol.trafficStats
    return {
        "queue": list(queue),
        "written": transport.value(),
        "state": protocol.state,
        "buffered": protocol.data,
        "inside a message": getattr(protocol, "inside_message", None),
        "lost": transport.disconnecting,
        "counted": {k: v for k, v in vars(stats).items() if k.startswith("incoming")},
    }


def both_ways(reads, **options):
    """(autobahn's outcome, the fast way's) of the same reads on two new sockets."""
    outcomes = []
    for receive in (fast_frames._autobahn_received, fast_frames._received):
        protocol, queue, transport = open_socket(**options)
        for data in reads:
            receive(protocol, data)
        outcomes.append(outcome(protocol, queue, transport))
    return outcomes


@pytest.fixture(autouse=True)
def installed(monkeypatch):
    monkeypatch.setattr(WebSocketProtocol, "dataReceived", WebSocketProtocol.dataReceived)
    fast_frames.install()


def test_install_is_idempotent_and_keeps_autobahns_way_for_the_rest():
    fast_frames.install()
    assert WebSocketProtocol.dataReceived is fast_frames._received
    assert fast_frames._autobahn_received is not fast_frames._received


@pytest.mark.parametrize("frame", TEXTS.values(), ids=TEXTS)
def test_a_whole_text_frame_never_reaches_autobahns_parser(frame, monkeypatch):
    protocol, queue, _transport = open_socket()
    monkeypatch.setattr(protocol, "processData", None)  # a call would fail the test
    protocol.dataReceived(frame * 2)
    assert len(queue) == 2
    assert queue[0]["type"] == "websocket.receive" and type(queue[0]["text"]) is str


def test_a_move_reaches_daphne_as_text_and_counts_as_traffic():
    protocol, queue, _transport = open_socket()
    protocol.last_ping = 0
    protocol.dataReceived(TEXTS["move"])
    assert queue == [{"type": "websocket.receive", "text": MOVE.decode()}]
    assert protocol.last_ping > 0  # daphne's own onMessage ran
    assert protocol.trafficStats.incomingWebSocketMessages == 1


@pytest.mark.parametrize("frame", [*TEXTS.values(), *OTHERS.values()], ids=[*TEXTS, *OTHERS])
def test_a_single_frame_ends_as_autobahn_ends_it(frame):
    autobahns, fast = both_ways([frame], **LIMITS if len(frame) < 2000 else {})
    assert fast == autobahns


def test_closes_are_autobahns_1007_and_1009():
    for name, code in [("invalid UTF-8", 1007), ("over the message size (1009)", 1009)]:
        _autobahns, fast = both_ways([OTHERS[name]], **LIMITS)
        assert fast["written"][2:4] == code.to_bytes(2, "big"), name
        assert fast["queue"] == []


def test_a_ping_among_texts_is_answered_in_order():
    reads = [TEXTS["move"] + OTHERS["ping"] + TEXTS["accented"]]
    autobahns, fast = both_ways(reads)
    assert fast == autobahns
    assert fast["written"] == b"\x8a\x0dare you there"
    assert len(fast["queue"]) == 2


def test_a_muted_socket_puts_nothing_on_the_queue():
    protocol, queue, _transport = open_socket()
    protocol.muted = True
    protocol.dataReceived(TEXTS["move"])
    assert queue == []


def stream():
    """Texts of every length form around a ping, a fragmented text and a binary frame."""
    return b"".join(
        [TEXTS["move"], TEXTS["empty"], TEXTS["126 bytes, 16-bit length"], OTHERS["ping"]]
        + [TEXTS["accented"], OTHERS["fragment, then its end"], TEXTS["move"]]
        + [OTHERS["binary"], TEXTS["125 bytes"]]
    )


def test_several_frames_in_one_read_end_as_autobahn_ends_them():
    autobahns, fast = both_ways([stream()])
    assert fast == autobahns
    assert len(fast["queue"]) == 8


def hazards():
    """Frames whose bytes after a cut read as a frame, and a text amid a fragmented one."""
    return b"".join(
        [TEXTS["a letter whose mask reads as a header"], TEXTS["move"]]
        + [TEXTS["a text whose payload reads as a frame"], TEXTS["move"]]
        + [OTHERS["a ping whose payload reads as a frame"], TEXTS["move"]]
        + [OTHERS["a text inside a fragmented message"], TEXTS["move"]]
    )


@pytest.mark.parametrize("cut", range(1, len(stream())))
def test_a_stream_cut_at_any_byte_ends_as_autobahn_ends_it(cut):
    data = stream()
    autobahns, fast = both_ways([data[:cut], data[cut:]])
    assert fast == autobahns
    assert len(fast["queue"]) == 8


@pytest.mark.parametrize("cut", range(1, len(hazards())))
def test_hazards_cut_at_any_byte_end_as_autobahn_ends_them(cut):
    data = hazards()
    autobahns, fast = both_ways([data[:cut], data[cut:]])
    assert fast == autobahns


def test_a_stream_read_byte_by_byte_ends_as_autobahn_ends_it():
    data = stream()
    autobahns, fast = both_ways([data[i : i + 1] for i in range(len(data))])
    assert fast == autobahns


@pytest.mark.parametrize("seed", range(40))
def test_random_mixes_of_fast_and_other_frames_end_as_autobahn_ends_them(seed):
    rng = random.Random(seed)
    kinds = {**TEXTS, **OTHERS}
    kinds.pop("65535 bytes"), kinds.pop("65536 bytes, 64-bit length")  # keep it quick
    texts = [name for name in TEXTS if name in kinds]
    names = rng.choices(texts * 3 + list(kinds), k=rng.randint(1, 12))
    data = b"".join(kinds[name] for name in names)
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(0, 5))))
    reads = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    autobahns, fast = both_ways(reads, **LIMITS)
    assert fast == autobahns, names


class PendingCall:
    """A timer autobahn may cancel."""

    def cancel(self):
        pass


SOCKETS_AUTOBAHN_DOES_MORE_FOR = {
    "frames logged": lambda protocol: setattr(protocol, "logFrames", True),
    "octets logged": lambda protocol: setattr(protocol, "logOctets", True),
    "timings tracked": lambda protocol: protocol.setTrackTimings(True),
    "UTF-8 left unchecked": lambda protocol: setattr(protocol, "utf8validateIncoming", False),
    "masks left on": lambda protocol: setattr(protocol, "applyMask", False),
    "a message listener": lambda protocol: protocol.on("message", lambda *_, **__: None),
    "a ping awaiting its pong": lambda protocol: setattr(
        protocol, "autoPingTimeoutCall", PendingCall()
    ),
    "compression": lambda protocol: setattr(protocol, "_perMessageCompress", object()),
    "failed already": lambda protocol: setattr(protocol, "failedByMe", True),
    "closing": lambda protocol: setattr(protocol, "state", protocol.STATE_CLOSING),
}


@pytest.mark.parametrize(
    "prepare", SOCKETS_AUTOBAHN_DOES_MORE_FOR.values(), ids=SOCKETS_AUTOBAHN_DOES_MORE_FOR
)
def test_a_socket_autobahn_does_more_for_is_left_to_autobahn(prepare, monkeypatch):
    protocol, _queue, _transport = open_socket()
    prepare(protocol)
    parsed = []
    monkeypatch.setattr(protocol, "processData", lambda: parsed.append(1))
    protocol.dataReceived(TEXTS["move"])
    assert parsed
