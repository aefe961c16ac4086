"""
The server's plain text frames written by daphne's reply itself
(halfmoon_site/fast_sends.py): on real daphne websockets, every message ends exactly
as daphne's own way (through autobahn's `sendMessage`) ends it, compared side by side
on two sockets sent the same messages: the same bytes written, the same state, send
queue and traffic counters, the same error raised. Texts of every length form, and
every case the fast way must leave to autobahn: a socket not open, a queue behind a
slow reader, compression, fragmenting, timing, logging, masking, an oversize text,
bytes, an accept, a close, a message daphne refuses, a connection daphne dropped.
"""

import asyncio
import functools
import random
import types

import pytest
from autobahn.websocket.compress import PerMessageDeflate
from daphne.server import Server

from game.testing.daphne_sockets import open_socket
from halfmoon_site import fast_sends

PROGRESS = '{"type":"progress","player":12,"seq":13,"kind":"move","slots":[3,7],"event":55}'
TEXTS = {
    "progress": PROGRESS,
    "one letter": "a",
    "accented": '{"name":"Zoë Brontë 🌙"}',
    "125 bytes": "a" * 125,
    "126 bytes, 16-bit length": "b" * 126,
    "65535 bytes": "c" * 65535,
    "65536 bytes, 64-bit length": "d" * 65536,
    "a 3-byte letter past 125 bytes": "€" * 42,
}


def send(text):
    return {"type": "websocket.send", "text": text}


OTHER_MESSAGES = {
    "bytes": {"type": "websocket.send", "bytes": b"\x00\x01"},
    "an empty text": send(""),
    "text and bytes": {"type": "websocket.send", "text": "a", "bytes": b"b"},
    "text as bytes": {"type": "websocket.send", "text": b"a"},
    "a close": {"type": "websocket.close", "code": 4000},
    "an accept, again": {"type": "websocket.accept"},
    "no type": {"text": "a"},
}


def outcome(protocol, transport, raised):
    stats = protocol.trafficStats
    return {
        "written": transport.value(),
        "state": protocol.state,
        "queued": list(protocol.send_queue),
        "raised": type(raised).__name__ if raised else None,
        "lost": transport.disconnecting,
        "counted": {k: v for k, v in vars(stats).items() if k.startswith("outgoing")},
    }


class Replies:
    """The parts of daphne's Server its reply reads: the connections it holds."""

    check_headers_type = staticmethod(Server.check_headers_type)

    def __init__(self, protocol, connection=None):
        self.connections = {protocol: {} if connection is None else connection}


def at_once(server, protocol, message):
    """A socket's send as the door does it: a text through `fast_sends.sender` at once,
    awaited through the server's (fast) reply when that says it cannot."""
    send = functools.partial(types.MethodType(fast_sends._reply, server), protocol)
    now = fast_sends.sender(send)
    assert now is not None
    plain = message.get("type") == "websocket.send" and set(message) == {"type", "text"}
    if not (plain and now(message["text"])):
        asyncio.run(send(message))


def both_ways(messages, prepare=lambda protocol: None, connection=None, **options):
    """(daphne's outcome, the fast way's, the door's at once) of the same messages on
    three new sockets."""
    outcomes = []
    ways = (
        lambda *args: asyncio.run(fast_sends._daphne_reply(*args)),
        lambda *args: asyncio.run(fast_sends._reply(*args)),
        at_once,
    )
    for reply in ways:
        protocol, _queue, transport = open_socket(**options)
        prepare(protocol)
        transport.clear()  # what the handshake wrote
        server, raised = Replies(protocol, connection), None
        random.seed(11)  # autobahn's masks, when a server masks, are the same both ways
        for message in messages:
            try:
                reply(server, protocol, message)
            except Exception as exc:  # the same error, every way
                raised = exc
        outcomes.append(outcome(protocol, transport, raised))
    return outcomes


@pytest.mark.parametrize("name", TEXTS)
def test_a_text_is_written_as_autobahn_writes_it_and_counted_alike(name):
    daphnes, fast, now = both_ways([send(TEXTS[name])])
    assert fast == daphnes == now
    assert fast["written"].endswith(TEXTS[name].encode()) and fast["raised"] is None


def test_a_race_s_frames_one_after_another_are_written_and_counted_alike():
    texts = random.Random(7).choices(list(TEXTS.values()), k=40)
    daphnes, fast, now = both_ways([send(text) for text in texts])
    assert fast == daphnes == now
    assert fast["counted"]["outgoingWebSocketMessages"] == 40


def test_the_fast_way_writes_once_a_frame():
    protocol, _queue, transport = open_socket()
    writes = []
    protocol.transport = types.SimpleNamespace(write=writes.append)
    asyncio.run(fast_sends._reply(Replies(protocol), protocol, send(PROGRESS)))
    assert writes == [b"\x81" + bytes([len(PROGRESS)]) + PROGRESS.encode()]


@pytest.mark.parametrize("name", OTHER_MESSAGES)
def test_any_other_message_goes_daphnes_way(name):
    daphnes, fast, now = both_ways([send(PROGRESS), OTHER_MESSAGES[name], send(PROGRESS)])
    assert fast == daphnes == now


def closing(protocol):
    protocol.sendClose(1000)


def queued(protocol):
    protocol.send_queue.append((b"behind a slow reader", False))


def timed(protocol):
    protocol.setTrackTimings(True)


def compressed(protocol):
    protocol._perMessageCompress = PerMessageDeflate(True, False, False, 15, 15, 8)


def logged(protocol):
    protocol.logFrames = protocol.logOctets = True


STATES = {
    "closing": (closing, {}),
    "a queue behind a slow reader": (queued, {}),
    "timings tracked": (timed, {}),
    "compressed (permessage-deflate)": (compressed, {}),
    "frames and octets logged": (logged, {}),
    "fragmented past 100 bytes": (lambda protocol: None, {"autoFragmentSize": 100}),
    "masked server frames": (lambda protocol: None, {"maskServerFrames": True}),
    "over the message size": (lambda protocol: None, {"maxMessagePayloadSize": 200}),
}


@pytest.mark.parametrize("name", STATES)
def test_a_socket_the_fast_way_does_not_serve_is_served_daphnes_way(name):
    prepare, options = STATES[name]
    texts = [send(PROGRESS), send("x" * 300), send(PROGRESS)]
    daphnes, fast, now = both_ways(texts, prepare, **options)
    assert fast == daphnes == now


@pytest.mark.parametrize("connection", [None, {"disconnected": True}], ids=["gone", "closed"])
def test_a_connection_daphne_no_longer_holds_is_sent_nothing(connection):
    protocol, _queue, transport = open_socket()
    transport.clear()
    server = Replies(protocol, connection)
    if connection is None:
        server.connections = {}
    for reply in (fast_sends._daphne_reply, fast_sends._reply):
        asyncio.run(reply(server, protocol, send(PROGRESS)))
    at_once(server, protocol, send(PROGRESS))
    assert transport.value() == b""


def test_the_door_s_sender_writes_at_once_and_serves_only_daphne_s_send():
    protocol, _queue, transport = open_socket()
    writes = []
    protocol.transport = types.SimpleNamespace(write=writes.append)
    server = Replies(protocol)
    send_ = functools.partial(types.MethodType(fast_sends._reply, server), protocol)
    now = fast_sends.sender(send_)
    assert now(PROGRESS) is True
    assert writes == [b"\x81" + bytes([len(PROGRESS)]) + PROGRESS.encode()]
    assert now("") is False and now(b"bytes") is False and len(writes) == 1
    unpatched = functools.partial(types.MethodType(fast_sends._daphne_reply, server), protocol)
    assert fast_sends.sender(unpatched) is None
    assert fast_sends.sender(lambda message: None) is None
