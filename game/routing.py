"""Websocket URL patterns, mounted by halfmoon_site.asgi under the origin/auth stack."""

from django.urls import re_path

from game.consumers import RaceConsumer

websocket_urlpatterns = [
    re_path(r"^ws/race/(?P<room>[A-Za-z0-9]{1,8})/$", RaceConsumer.as_asgi()),
]
