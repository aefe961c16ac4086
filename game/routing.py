"""Websocket URL patterns, mounted by halfmoon_site.asgi under the origin/auth stack."""

from django.urls import path, re_path

from game.base import rooms  # noqa: F401 - registers the <room:...> converter
from game.events.consumer import EventConsumer
from game.realtime.consumer import RaceConsumer
from game.realtime.nowhere import NoSuchSocket

websocket_urlpatterns = [
    path("ws/race/<room:room>/", RaceConsumer.as_asgi()),
    path("ws/event/<int:event>/", EventConsumer.as_asgi()),
    re_path("", NoSuchSocket.as_asgi()),  # any other path: closed 4400, not an HTTP 500
]
