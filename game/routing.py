"""Websocket URL patterns, mounted by halfmoon_site.asgi under the origin/auth stack."""

websocket_urlpatterns = []
