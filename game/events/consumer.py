"""
`EventConsumer`: a socket that receives an event's live standings, for its page, the
table's side panel of an event game, and any spectator. It sends nothing that
matters: the standings come from the event's one ticker (game/events/live.py), and a
player's own line is added on the way out by this socket's process.
"""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from game.base.errors import CloseCode
from game.events import live
from game.models import Event, EventEntry
from game.players import identity


def _viewer(event_id, session):
    """(the event exists, the viewer's entry id or None); a look saves no session."""
    if not Event.objects.filter(pk=event_id).exists():
        return False, None
    key = identity.viewer_key(session) if session is not None else None
    entry = EventEntry.objects.filter(event_id=event_id, player_key=key).first()
    return True, entry.pk if entry else None


class EventConsumer(AsyncWebsocketConsumer):
    channel_layer_alias = None
    """No channel per socket: fan-out hands the standings to `race_frame`."""
    watching = False
    entry_id = None

    async def connect(self):
        self.event_id = self.scope["url_route"]["kwargs"]["event"]
        await self.accept()
        try:
            found, self.entry_id = await database_sync_to_async(_viewer)(
                self.event_id, self.scope.get("session")
            )
        except Exception:  # the database does not answer: the client tries again later
            await self.close(code=int(CloseCode.UNAVAILABLE))
            return
        if not found:
            await self.close(code=int(CloseCode.NO_SUCH_RACE))
            return
        self.watching = await live.watch(self.event_id, self)
        if not self.watching:
            await self.close(code=int(CloseCode.UNAVAILABLE))

    async def disconnect(self, code):
        if self.watching:
            self.watching = False
            await live.unwatch(self.event_id, self)

    async def receive(self, text_data=None, bytes_data=None):
        """A ping keeps an idle entrance from closing the socket; nothing else is read."""
        if text_data and '"ping"' in text_data:
            await self.send(text_data='{"type":"pong"}')

    async def race_frame(self, message):
        for text in live.texts(self.event_id, message, self.entry_id):
            await self.send(text_data=text)
