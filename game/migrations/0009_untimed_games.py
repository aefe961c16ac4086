"""
Solo and ghost games lose their time limit, a daily attempt keeps only its day's
(game/race/clock.py `limit_s`). Games already in play follow the new rule too, so
the change times none of them out: a solo or ghost game's limit goes, a running
daily attempt's reaches its day's end plus the limit it had.
"""

import datetime
import math

from django.db import migrations, models


def untime_games_in_play(apps, schema_editor):
    Race = apps.get_model("game", "Race")
    in_play = Race.objects.exclude(status="finished")
    in_play.filter(mode__in=["solo", "ghost"]).update(time_limit_s=None)
    for race in in_play.filter(mode="daily", started_at__isnull=False):
        day_end = datetime.datetime.combine(
            race.daily_date + datetime.timedelta(days=1), datetime.time(), datetime.UTC
        )
        left = max(0, math.ceil((day_end - race.started_at).total_seconds()))
        race.time_limit_s = left + race.time_limit_s
        race.save(update_fields=["time_limit_s"])


def time_them_again(apps, schema_editor):
    apps.get_model("game", "Race").objects.filter(time_limit_s=None).update(time_limit_s=900)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0008_help_texts"),
    ]

    operations = [
        migrations.AlterField(
            model_name="race",
            name="time_limit_s",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="seconds from the start until the time runs out; none for a solo or ghost game",
                null=True,
            ),
        ),
        migrations.RunPython(untime_games_in_play, time_them_again),
    ]
