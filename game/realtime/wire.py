"""
A text frame handed straight to daphne's websocket protocol, not through its ASGI send.

Every frame a socket sends went `send({"type": "websocket.send", "text": …})` → daphne's
`Server.handle_reply` (a coroutine made and awaited a frame, the connection looked up,
the message's headers checked) → the protocol's `handle_reply` (the message's keys read)
→ `serverSend` (a debug line's arguments, the text encoded) → autobahn's `sendMessage`.
A move makes four such frames in a race of four (one `moved`, three `progress`). Here
the door gets, once a socket, a function that does the same checks daphne does and
calls `sendMessage` with the frame's bytes; anything unusual (not daphne's send: a
test's communicator; a protocol not open) goes daphne's way, so the result is the same.
tests/server/test_patched_internals.py holds daphne to the shape this relies on.
"""

import functools


def direct(send):
    """A function taking a text frame's UTF-8 bytes that sends them at once and returns
    True, or False when the frame must go through `send` after all; None when `send` is
    not daphne's own (then every frame goes through `send`)."""
    if not isinstance(send, functools.partial) or len(send.args) != 1 or send.keywords:
        return None
    server, protocol = getattr(send.func, "__self__", None), send.args[0]
    if getattr(send.func, "__name__", "") != "handle_reply" or not hasattr(server, "connections"):
        return None
    if not hasattr(protocol, "sendMessage") or not hasattr(protocol, "STATE_OPEN"):
        return None
    connections, open_state = server.connections, protocol.STATE_OPEN

    def send_now(data):
        details = connections.get(protocol)
        if details is None or details.get("disconnected") or protocol.state != open_state:
            return False  # daphne's way: it drops, accepts or refuses as it always did
        protocol.sendMessage(data, False)
        return True

    return send_now
