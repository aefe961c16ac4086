"""A shared run (game/runs/shares.py): a finished game under an unguessable token, the
link a player shares (its result, its image card, a ghost race against it)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0025_verified"),
    ]

    operations = [
        migrations.CreateModel(
            name="SharedRun",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token", models.CharField(max_length=22, unique=True)),
                (
                    "entry",
                    models.OneToOneField(
                        help_text="the game shared",
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="shared",
                        to="game.entry",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
    ]
