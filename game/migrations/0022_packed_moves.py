"""A finished game's moves packed into one column of its entry (docs/storage.md).

Schema only: the games already finished are packed by `manage.py pack_moves` (and
`daily_upkeep`), which needs the engine; a migration never imports game.*."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0021_follow_lists_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="packed_moves",
            field=models.BinaryField(
                blank=True,
                editable=False,
                help_text="the finished game's moves, packed (docs/storage.md); its Move rows are gone",
                null=True,
            ),
        ),
    ]
