"""
The staff's admin site: Django's own, with "Flagged results" in its menu (the index
and the side menu) beside the models, counting the results that wait for a decision,
so the queue is found without knowing its address. Installed by game/staff/apps.py.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.translation import gettext

from game.players import moderation


class StaffSite(admin.AdminSite):
    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        if request.user.has_perm("game.change_entry"):
            for app in apps:
                if app["app_label"] == "game":
                    app["models"].insert(0, _flagged_row())
        return apps


def _flagged_row():
    """The menu's line for the flagged results: a page, not a model, read only."""
    count = moderation.flagged().count()
    return {
        "name": gettext("Flagged results (%(count)d)") % {"count": count},
        "object_name": "FlaggedResult",
        "admin_url": reverse("admin:game_review_flagged"),
        "add_url": None,
        "view_only": True,
        "perms": {"view": True},
    }
