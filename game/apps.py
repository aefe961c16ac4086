"""
The `game` app: one Django app label for every package (raw SQL, migrations and admin
URLs name it), and the one place its signal receivers are connected (at start, not as a
side effect of whichever module happens to be imported).
"""

from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Half Moon Race"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.models.signals import post_delete, pre_delete

        from game.models import Account, Record, rank_counts
        from game.players import accounts, erase, login_throttle

        user_logged_in.connect(accounts.play_as_account, dispatch_uid="game.play_as_account")
        user_login_failed.connect(login_throttle.count_failure, dispatch_uid="game.login_failed")
        for model in (Record, Account):  # a deleted row leaves its boards' counts
            post_delete.connect(rank_counts.removed, sender=model, dispatch_uid=f"game.{model}")
        # However a user is deleted (their page, the admin, a shell): results anonymised first.
        pre_delete.connect(erase.anonymised, sender=get_user_model(), dispatch_uid="game.erase")
