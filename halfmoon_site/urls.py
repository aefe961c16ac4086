"""Top-level URLs: the admin, the language switch, the client's translations, the game app."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from game.players.login_throttle import throttled

urlpatterns = [
    path("admin/login/", throttled(admin.site.login)),  # before admin/: the same URL, guarded
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("game.urls")),
]

handler404 = "game.web.pages.not_found"
