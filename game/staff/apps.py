"""
Django's admin app with the staff's own site (game/staff/site.py), named in
INSTALLED_APPS in place of "django.contrib.admin"; kept apart from the site
because INSTALLED_APPS is read before any model can be imported.
"""

from django.contrib.admin.apps import AdminConfig


class StaffAdminConfig(AdminConfig):
    default_site = "game.staff.site.StaffSite"
