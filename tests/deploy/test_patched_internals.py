"""
Every private part of a dependency that the server patches or reaches into, checked
for the shape the patch expects, so that an upgrade (`make lock`, docs/operations.md)
fails here and not in production, where a moved internal would leave the server
running without its patch, or failing on the first frame.

The patches and what they rely on:
- halfmoon_site/eager_writes.py replaces Twisted's `tcp.Connection.write` and reads
  its queue (`dataBuffer`, `_tempDataBuffer`) and state (`_writeDisconnected`, ...);
- halfmoon_site/asgi.py wraps daphne's `WebSocketFactory.setProtocolOptions` to add
  autobahn's `failByDrop=False`, and swaps autobahn's `hltype`/`hlval` for `_as_is`
  in the two modules on a frame's path;
- game/realtime/shutdown.py wraps daphne's `Server.listen_success`,
  `Server.kill_all_applications` and `WebSocketProtocol.serverClose`, reads daphne's
  `Server.connections` (each HTTP request's `application_instance`), sets Twisted's
  `HTTPChannel.persistent` and a request's headers before it `startedWriting`, closes
  the reactor's readers whose `HTTPChannel` has no `requests`, and waits for the
  `process_request` tasks Django's `ASGIHandler.handle` creates;
- game/realtime/fanout.py's Publisher sends as channels-redis's pub/sub layer would
  (its private `_get_group_channel_name`, its `serialize`);
- halfmoon_site/daphne_uvloop.py relies on daphne making its loop when
  `daphne.server` is imported;
- halfmoon_site/fast_frames.py replaces daphne's `WebSocketProtocol.dataReceived`
  (autobahn's, inherited), reads autobahn's receive state (`data`, `current_frame`,
  `inside_message`, `failedByMe`, `_perMessageCompress`, `autoPingTimeoutCall`,
  `_listeners`, ...) and options, adds to its `trafficStats` and hands each text to
  its `_onMessage`, which calls daphne's `onMessage`;
- halfmoon_site/fast_sends.py replaces daphne's `Server.handle_reply`, reads daphne's
  `Server.connections` and autobahn's send state and options (`send_queue`,
  `maskServerFrames`, `autoFragmentSize`, ...), adds to its `trafficStats` and writes
  to its `transport`; its `sender`, which the door sends a move's frames through,
  takes daphne's `send` apart: the `partial` of `Server.handle_reply` and the protocol
  that daphne's `create_application` hands the application, and keeps daphne's record
  of the connection, which daphne marks "disconnected" before it forgets it.
What each does on a real server is tested beside it: tests/deploy/test_eager_writes.py
(a real socket), test_fast_frames.py and test_fast_sends.py (autobahn's own outcome,
input by input),
test_protocol_edges.py (1009 and 1007 from a real daphne) and
test_rolling_restart.py (SIGTERM's drain and 1012). None of them can tell a patch
that quietly stopped applying from one that works, which is what this file checks.
"""

import asyncio
import inspect
import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from autobahn import util as autobahn_util
from autobahn.twisted import websocket as autobahn_twisted
from autobahn.websocket import protocol as autobahn_protocol
from daphne.http_protocol import WebRequest
from daphne.server import Server
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.core.handlers.asgi import ASGIHandler
from twisted.internet import abstract, asyncioreactor, tcp
from twisted.web import http as twisted_http

from game.realtime import fanout, shutdown
from game.testing.daphne_sockets import open_socket
from halfmoon_site import asgi, eager_writes, fast_frames, fast_sends


def parameters(function):
    return list(inspect.signature(function).parameters)


def original(patched, name):
    """What a wrapper installed by a patch wraps (the function itself when unpatched)."""
    return inspect.getclosurevars(patched).nonlocals.get(name, patched)


# Twisted: the eager write (halfmoon_site/eager_writes.py)


def test_twisteds_write_is_the_one_every_server_connection_uses():
    assert tcp.Server.write is tcp.Connection.write is eager_writes._write_now
    # the queued way, for what the socket does not take: Twisted's own write(self, data)
    assert len(parameters(eager_writes._queued_write)) == 2
    assert parameters(abstract.FileDescriptor.write) == ["self", "data"]


def test_a_real_connection_has_the_state_and_queue_the_eager_write_reads():
    ours, peer = socket.socketpair()
    with ours, peer:
        connection = tcp.Connection(ours, protocol=None, reactor=object())
        assert connection.socket is ours
        assert type(connection._writeDisconnected) is bool
        assert type(connection.dataBuffer) is bytes
        assert type(connection._tempDataBuffer) is list
        assert not connection.connected and not connection.disconnecting and not connection.TLS
        # doWrite sends the queue: what was appended to _tempDataBuffer goes first
        assert "_tempDataBuffer" in inspect.getsource(abstract.FileDescriptor.doWrite)


# autobahn through daphne: closing instead of dropping (halfmoon_site/asgi.py)


def test_daphne_sets_its_websocket_options_through_the_wrapped_method():
    assert "self.ws_factory.setProtocolOptions(" in inspect.getsource(Server.run)
    assert WebSocketFactory.setProtocolOptions is asgi._close_on_failure
    assert "failByDrop" in parameters(asgi._set_options)
    assert "failByDrop" in WebSocketProtocol.CONFIG_ATTRS  # copied to each socket


def test_a_real_factory_closes_failed_connections_once_daphne_set_its_options():
    factory = WebSocketFactory(server_class=None, server="daphne")
    assert factory.failByDrop is True  # autobahn's default: the reason for the patch
    factory.setProtocolOptions(maxMessagePayloadSize=2**20, allowNullOrigin=True)
    assert factory.failByDrop is False
    assert factory.maxMessagePayloadSize == 2**20  # daphne's own options still reach it


# autobahn: debug lines' arguments left as they are (halfmoon_site/asgi.py)


def test_autobahns_highlighters_have_the_calls_the_stand_in_takes():
    assert parameters(autobahn_util.hltype) == ["obj"]
    assert parameters(autobahn_util.hlval) == ["val", "color", "bold"]
    inspect.signature(asgi._as_is).bind("value", color="white", bold=True)


@pytest.mark.parametrize("module", [autobahn_protocol, autobahn_twisted], ids=lambda m: m.__name__)
def test_the_frame_path_calls_only_highlighters_the_patch_replaced(module):
    imported = {
        name
        for name, value in vars(module).items()
        if getattr(value, "__module__", None) == "autobahn.util" and name.startswith("hl")
    }
    assert imported == set(), f"{module.__name__} formats with {imported} on every frame"
    assert module.hltype is module.hlval is asgi._as_is
    assert "hltype(" in inspect.getsource(module)  # looked up in the module at each call


# daphne: the drain on SIGTERM (game/realtime/shutdown.py)


def test_daphnes_hooks_for_the_drain_have_the_shape_the_wrappers_take():
    listen_success = original(Server.listen_success, "listen_success")
    kill_all = original(Server.kill_all_applications, "kill_all_applications")
    server_close = original(WebSocketProtocol.serverClose, "server_close")
    assert listen_success is not Server.listen_success  # installed (by halfmoon_site.asgi)
    assert kill_all is not Server.kill_all_applications
    assert server_close is not WebSocketProtocol.serverClose
    assert parameters(listen_success) == ["self", "port"]
    assert parameters(kill_all) == ["self"]
    assert parameters(server_close) == ["self", "code"]
    assert {"code", "isReply"} <= set(parameters(WebSocketProtocol.sendCloseFrame))
    assert callable(tcp.Port.stopListening)  # what listen_success is given, for TCP
    run = inspect.getsource(Server.run)  # both looked up on the server as it starts
    assert "listener.addCallback(self.listen_success)" in run
    assert 'addSystemEventTrigger("before", "shutdown", self.kill_all_applications)' in run


def test_daphnes_requests_have_what_the_http_drain_reads_and_sets():
    server = inspect.getsource(Server.create_application)
    assert 'self.connections[protocol]["application_instance"] = asyncio.ensure_future(' in server
    request = inspect.getsource(WebRequest.__init__)
    assert "self.server.protocol_connected(self)" in request  # every request is a connection
    assert issubclass(WebRequest, twisted_http.Request)
    assert twisted_http.Request.startedWriting == 0  # until the headers go out
    finished = inspect.getsource(twisted_http.HTTPChannel.requestDone)
    assert "if self.persistent:" in finished and "self.loseConnection()" in finished
    reply = inspect.getsource(WebRequest.handle_reply)
    assert "self.responseHeaders.addRawHeader(header, value)" in reply  # adds, keeps ours
    channel = inspect.getsource(twisted_http.HTTPChannel.__init__)
    assert "self.requests = []" in channel  # an idle kept-alive connection has none
    assert "getReaders" in dir(asyncioreactor.AsyncioSelectorReactor)  # each a tcp.Server
    assert "protocol" in inspect.getsource(tcp.Connection.__init__)  # reader.protocol


def test_djangos_asgi_handler_leaves_its_request_task_running_when_cancelled():
    handle = inspect.getsource(ASGIHandler.handle)
    assert "asyncio.create_task(process_request(request, send))" in handle
    assert shutdown._process_request_code().co_name == "process_request"


# autobahn through daphne: whole text frames taken by the socket (halfmoon_site/fast_frames.py)


def test_daphnes_websocket_receives_through_the_fast_path_and_falls_back_to_autobahns():
    assert WebSocketProtocol.dataReceived is fast_frames._received  # installed by asgi
    assert "def dataReceived" not in inspect.getsource(WebSocketProtocol)  # inherited
    autobahns = autobahn_twisted.WebSocketAdapterProtocol.dataReceived
    assert fast_frames._autobahn_received is autobahns
    assert parameters(autobahns) == ["self", "data"]
    assert parameters(autobahn_twisted.WebSocketAdapterProtocol._onMessage) == [
        "self",
        "payload",
        "isBinary",
    ]
    assert "self.onMessage(payload, isBinary)" in inspect.getsource(
        autobahn_twisted.WebSocketAdapterProtocol._onMessage
    )
    assert parameters(WebSocketProtocol.onMessage) == ["self", "payload", "isBinary"]
    assert 'payload.decode("utf8")' in inspect.getsource(WebSocketProtocol.onMessage)


def test_a_real_open_socket_has_the_state_and_options_the_fast_path_reads():
    protocol, _queue, _transport = open_socket()
    assert protocol.state == protocol.STATE_OPEN == autobahn_protocol.WebSocketProtocol.STATE_OPEN
    assert protocol.data == b"" and protocol.current_frame is None
    assert protocol.inside_message is False and protocol.failedByMe is False
    assert protocol._perMessageCompress is None and protocol.autoPingTimeoutCall is None
    assert protocol._listeners is None and protocol.trackedTimings is None
    assert protocol.applyMask is True and protocol.utf8validateIncoming is True
    assert protocol.logOctets is False and protocol.logFrames is False
    assert type(protocol.maxMessagePayloadSize) is type(protocol.maxFramePayloadSize) is int
    counters = [name for name in vars(protocol.trafficStats) if name.startswith("incoming")]
    assert sorted(counters) == sorted(
        ["incomingOctetsWireLevel", "incomingOctetsWebSocketLevel", "incomingOctetsAppLevel"]
        + ["incomingWebSocketFrames", "incomingWebSocketMessages"]
    )


RECEIVE_PATH = {  # autobahn's method: what in it the fast path checks or does alike
    "_dataReceived": ["self.data += data", "self.logOctets", "incomingOctetsWireLevel"],
    "processData": ["self.current_frame is None", "self.inside_message", "self.applyMask"],
    "onFrameBegin": ["self._perMessageCompress", "self.utf8validateIncoming", "trackedTimings"],
    "onMessageFrameBegin": ["self.maxMessagePayloadSize", "self.maxFramePayloadSize"],
    "onFrameData": ["incomingOctetsWebSocketLevel", "incomingOctetsAppLevel"],
    "onFrameEnd": ["self.logFrames", "self.autoPingTimeoutCall", "incomingWebSocketMessages"],
    "onMessageEnd": ["if not self.failedByMe", 'self.fire("message"'],
}


@pytest.mark.parametrize("method", RECEIVE_PATH)
def test_autobahns_receive_path_still_turns_on_what_the_fast_path_checks(method):
    source = inspect.getsource(getattr(autobahn_protocol.WebSocketProtocol, method))
    for part in RECEIVE_PATH[method]:
        assert part in source, f"{method} no longer has {part!r}"


def test_firing_an_event_with_no_listener_does_nothing_the_fast_path_skips():
    assert "if self._listeners is None:" in inspect.getsource(autobahn_util.ObservableMixin.fire)


# daphne to autobahn: plain text frames sent by daphne's reply (halfmoon_site/fast_sends.py)


def test_daphnes_reply_sends_through_the_fast_path_and_falls_back_to_daphnes():
    assert Server.handle_reply is fast_sends._reply  # installed by asgi
    daphnes = fast_sends._daphne_reply
    assert daphnes.__module__ == "daphne.server" and parameters(daphnes) == [
        "self",
        "protocol",
        "message",
    ]
    source = inspect.getsource(daphnes)
    assert "protocol not in self.connections" in source and '"disconnected"' in source
    assert "protocol.handle_reply(message)" in source
    source = inspect.getsource(WebSocketProtocol.handle_reply)
    assert 'if message.get("text", None):' in source
    assert 'self.serverSend(message["text"], False)' in source
    source = inspect.getsource(WebSocketProtocol.serverSend)
    assert 'self.sendMessage(content.encode("utf8"), binary)' in source


def test_daphnes_application_gets_the_send_the_doors_sender_takes_apart():
    assert "send=partial(self.handle_reply, protocol)" in inspect.getsource(
        Server.create_application
    )
    made = {}

    def application(scope, receive, send):
        made["send"] = send
        return asyncio.sleep(0)

    server, protocol = Server(application=application, endpoints=["tcp:port=0"]), object()
    server.connections = {protocol: {}}
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        server.create_application(protocol, {"type": "websocket"})
        loop.run_until_complete(server.connections[protocol]["application_instance"])
    finally:
        asyncio.set_event_loop(None)
        loop.close()
    assert made["send"].args == (protocol,) and made["send"].func.__self__ is server
    assert fast_sends.sender(made["send"]) is not None
    # the sender keeps daphne's record of the connection: marked, then forgotten
    source = inspect.getsource(Server.protocol_disconnected)
    assert 'self.connections[protocol]["disconnected"] = time.time()' in source
    source = inspect.getsource(Server.application_checker)
    assert "if not application_instance and disconnected:" in source
    assert source.count("del self.connections[protocol]\n") == 1


def test_a_real_open_socket_has_the_state_and_options_the_fast_send_reads():
    protocol, _queue, _transport = open_socket()
    assert protocol.state == protocol.STATE_OPEN and len(protocol.send_queue) == 0
    assert protocol._perMessageCompress is None and protocol.trackedTimings is None
    assert protocol.maskServerFrames is False and protocol.autoFragmentSize == 0
    assert protocol.logOctets is False and protocol.logFrames is False
    counters = [name for name in vars(protocol.trafficStats) if name.startswith("outgoing")]
    assert sorted(counters) == sorted(
        ["outgoingOctetsWireLevel", "outgoingOctetsWebSocketLevel", "outgoingOctetsAppLevel"]
        + ["outgoingWebSocketFrames", "outgoingWebSocketMessages"]
    )


SEND_PATH = {  # autobahn's method: what in it the fast send checks or does alike
    "sendMessage": [
        "self.state != WebSocketProtocol.STATE_OPEN",
        "self.trackedTimings",
        "self._perMessageCompress is not None",
        "0 < self.maxMessagePayloadSize < payload_len",
        "self.autoFragmentSize > 0",
        "outgoingWebSocketMessages += 1",
        "outgoingOctetsWebSocketLevel += payload_len",
    ],
    "sendFrame": [
        "self.factory.isServer and self.maskServerFrames",
        "self.logFrames",
        "outgoingWebSocketFrames += 1",
    ],
    "sendData": [
        "if sync or len(self.send_queue) > 0:",
        "self.transport.write(data)",
        "outgoingOctetsWireLevel += len(data)",
        "self.logOctets",
    ],
}


@pytest.mark.parametrize("method", SEND_PATH)
def test_autobahns_send_path_still_turns_on_what_the_fast_send_checks(method):
    source = inspect.getsource(getattr(autobahn_protocol.WebSocketProtocol, method))
    for part in SEND_PATH[method]:
        assert part in source, f"{method} no longer has {part!r}"


# channels-redis: the batched publishes (game/realtime/fanout.py)


@pytest.mark.redis
async def test_a_publish_batched_by_the_publisher_reaches_the_layers_group(redis_url, settings):
    from channels_redis.pubsub import RedisPubSubChannelLayer

    settings.REDIS_URL, settings.CHANNEL_LAYER_URLS = redis_url, [redis_url]
    layer = RedisPubSubChannelLayer(hosts=[redis_url], prefix=f"patched-{uuid.uuid4().hex}")
    room = "PATCHED1"
    channel = await layer.new_channel()
    await layer.group_add(fanout.group_name(room), channel)
    try:
        expected = f"{layer.prefix}__group__{fanout.group_name(room)}"
        assert layer._get_group_channel_name(fanout.group_name(room)) == expected
        publisher = fanout.Publisher(layer)
        await publisher.send(room, {"type": "race.frame", "n": 1})
        assert await layer.receive(channel) == {"type": "race.frame", "n": 1}
        for client in publisher.clients:
            await client.aclose()
    finally:
        await layer.group_discard(fanout.group_name(room), channel)
        await layer.flush()


# The server's own start: every patch in place, in the order daphne imports things

IN_A_SERVER = """
import json, sys
import halfmoon_site.daphne_uvloop
import daphne.server
import halfmoon_site.asgi
import game.realtime.door
from autobahn.websocket import protocol
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.internet import reactor, tcp
print(json.dumps({
    "loop": type(reactor._asyncioEventloop).__module__,
    "write": tcp.Server.write.__module__,
    "options": WebSocketFactory.setProtocolOptions.__module__,
    "drain": daphne.server.Server.kill_all_applications.__module__,
    "hltype": protocol.hltype.__module__,
    "frames": WebSocketProtocol.dataReceived.__module__,
    "sends": daphne.server.Server.handle_reply.__module__,
    "door": getattr(game.realtime.door.fast_sender, "__module__", None),
}))
"""


def test_a_server_process_starts_with_every_patch_in_place():
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings"}
    out = subprocess.run(
        [sys.executable, "-c", IN_A_SERVER], env=env, cwd=root, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == {
        "loop": "uvloop",
        "write": "halfmoon_site.eager_writes",
        "options": "halfmoon_site.asgi",
        "drain": "game.realtime.shutdown",
        "hltype": "halfmoon_site.asgi",
        "frames": "halfmoon_site.fast_frames",
        "sends": "halfmoon_site.fast_sends",
        "door": "halfmoon_site.fast_sends",
    }
