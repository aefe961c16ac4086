"""A verified #1 (game/race/verify.py, docs/fair-play.md): whether a top result's
stored moves replayed to it on the server, or why it is held; and a verification
deal's race, tied to the held result whose pace it must show; when a day's top was
replayed once more, the day over."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0024_event_entry_address"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailydeal",
            name="top_checked_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when the day's top results were replayed once more, the day over "
                "(game/race/verify.py): its board final",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="entry",
            name="verification",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "not verified (not among the top results)"),
                    ("verified", "verified: replayed on the server (game/race/verify.py)"),
                    ("replay", "held: its stored result is not what its moves replay to"),
                    (
                        "pace",
                        "held: far faster than the player's history, until a verification deal",
                    ),
                ],
                default="",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="race",
            name="verifies",
            field=models.ForeignKey(
                blank=True,
                help_text="a verification deal: the held result whose pace it must show",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="verification_races",
                to="game.entry",
            ),
        ),
    ]
