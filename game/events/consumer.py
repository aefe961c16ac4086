"""
`EventConsumer`: a socket that receives an event's live standings, for its page, the
table's side panel of an event game, and any spectator. It sends nothing that
matters: the standings come from the event's one ticker (game/events/live.py), and a
player's own line is added on the way out by this socket's process.

It goes through the same door as a race socket (game/realtime/door.py), since a script
can open either: a place in the socket limits per session and client address (4429
past them), closed on a flood (4008), after HALFMOON_IDLE_S of silence (4408) and with
1012 on SIGTERM. What it reads is parsed by the race protocol's rule
(`protocol.EVENT_FRAMES`): a ping is answered `pong` with the server's clock, as a race
socket's is; anything else an `error`.
"""

from channels.db import database_sync_to_async
from django.conf import settings

from game.base import limits
from game.base.errors import CloseCode
from game.events import live
from game.models import Event, EventEntry
from game.players import identity
from game.race import protocol
from game.realtime.credit import Credit
from game.realtime.door import Door


def _viewer(event_id, session):
    """(the event exists, the viewer's entry id or None); a look saves no session."""
    if not Event.objects.filter(pk=event_id).exists():
        return False, None
    key = identity.viewer_key(session) if session is not None else None
    entry = EventEntry.objects.filter(event_id=event_id, player_key=key).first()
    return True, entry.pk if entry else None


class EventConsumer(Door):
    frame_types = protocol.EVENT_FRAMES
    tag = "e"
    watching = False
    entry_id = None

    async def connect(self):
        self.event_id = self.scope["url_route"]["kwargs"]["event"]
        await super().connect()

    async def seat_key(self):
        """Its session's place (a sessionless spectator counts only against its address)
        and its client address's."""
        session_key = getattr(self.scope.get("session"), "session_key", None)
        return session_key or f"none:{self.socket_id}", limits.scope_address(self.scope)

    async def enter(self):
        """The viewer, then the event's standings; False once the socket was closed."""
        if not await self.find_viewer():
            return False
        self.watching = await live.watch(self.event_id, self)
        if not self.watching:
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        self.credit = Credit(settings.HALFMOON_FRAME_RATE, settings.HALFMOON_FRAME_BURST)
        return True

    async def find_viewer(self):
        """The event and the viewer's entry; False once the socket was closed (4404 for
        no such event, 4503 when the database does not answer: the page tries later)."""
        try:
            found, self.entry_id = await database_sync_to_async(_viewer)(
                self.event_id, self.scope.get("session")
            )
        except Exception:
            await self.close(code=CloseCode.UNAVAILABLE)
            return False
        if not found:
            await self.close(code=CloseCode.NO_SUCH_RACE)
        return found

    async def leave(self):
        if self.watching:
            self.watching = False
            await live.unwatch(self.event_id, self)

    def flooding(self):
        return not self.credit.spend()

    async def race_frame(self, message):
        for text in live.texts(self.event_id, message, self.entry_id):
            await self.send_text(text)
