"""Top-level URLs: the admin, the language switch, the client's translations, the game app."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from game.players.login_throttle import throttled
from game.web.catalogue import catalogue

urlpatterns = [
    path("admin/login/", throttled(admin.site.login)),  # before admin/: the same URL, guarded
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # Pages name the catalogue by its digest, kept a year (game/web/catalogue.py).
    path("jsi18n/<str:version>/", catalogue, name="javascript-catalog"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog-latest"),
    path("", include("game.urls")),
]

# Django runs these on its event loop's executor: each closes its thread's database
# connections before and after (game/web/handlers.py).
handler400 = "game.web.handlers.bad_request"
handler403 = "game.web.handlers.permission_denied"
handler404 = "game.web.pages.not_found"
handler500 = "game.web.handlers.server_error"
