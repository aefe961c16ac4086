"""
The door every socket goes through (game/realtime/door.py), tried at each socket's
path. Its ping, answered with the protocol's `pong` while a frame that only names a
ping is an `error`, is tried on the event socket in test_events.py (and the race
socket's pong in test_race_protocol.py).
"""

import pytest
from channels.testing import WebsocketCommunicator

from game.realtime import shutdown
from tests.support.server import ORIGIN


@pytest.mark.parametrize("path", ["/ws/race/ABCD1234/", "/ws/event/1/"])
async def test_a_stopping_process_sends_every_new_socket_elsewhere(path, monkeypatch):
    """Closed 1012 (reconnect at once) before it takes a seat or reads the database."""
    from halfmoon_site.asgi import application

    monkeypatch.setattr(shutdown, "draining", True)
    socket = WebsocketCommunicator(application, path, [ORIGIN])
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 1012}
