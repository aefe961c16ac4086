"""The `game` app: one Django app label for every package (raw SQL, migrations and
admin URLs name it)."""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Half Moon Race"
    default_auto_field = "django.db.models.BigAutoField"
