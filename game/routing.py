"""Websocket URL patterns, mounted by halfmoon_site.asgi under the origin/auth stack."""

from django.urls import path

from game.base import rooms  # noqa: F401 - registers the <room:...> converter
from game.events.consumer import EventConsumer
from game.realtime.consumer import RaceConsumer

websocket_urlpatterns = [
    path("ws/race/<room:room>/", RaceConsumer.as_asgi()),
    path("ws/event/<int:event>/", EventConsumer.as_asgi()),
]
