"""
A websocket to a path no consumer serves (`/ws/nope/`, `/ws/event/-1/`, a room code
with a character no room has): refused with close 4400, logged in one line, limited
per client address.

channels' router raises on a path it does not know, and daphne answers that with an
HTTP 500 and a logged traceback: a script could fill the log at the rate it opens
sockets. This consumer is the router's last route instead. Within
`HALFMOON_UNKNOWN_SOCKET_ADDRESS_LIMIT` an address's socket is accepted and closed 4400
(the documented code, docs/protocol.md) with one line of log; past it, the handshake
is refused (HTTP 403) and nothing is logged here.
"""

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from game.base import limits
from game.base.errors import CloseCode

logger = logging.getLogger(__name__)


class NoSuchSocket(AsyncWebsocketConsumer):
    async def connect(self):
        address = limits.scope_address(self.scope)
        try:
            await database_sync_to_async(limits.spend_address)(address, "unknown_socket")
        except Exception:  # over the limit (GameError), or Redis does not answer
            await self.close()  # before accepting: daphne refuses the handshake
            return
        logger.info("socket to no route %.100r from %s: closed 4400", self.scope["path"], address)
        await self.accept()
        await self.close(code=int(CloseCode.NO_SUCH_PATH))

    async def receive(self, text_data=None, bytes_data=None):
        """Whatever came before the close went out is not read."""
