"""The daily deal explorer's tree, stored on the day's row once the day is over."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0012_friends"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailydeal",
            name="explorer",
            field=models.JSONField(
                blank=True,
                help_text="the tree of the day's games by move (game/daily/explorer.py), "
                "stored once the day is over; none until then",
                null=True,
            ),
        ),
    ]
