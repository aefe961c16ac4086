"""A profile's following and followers lists, each read in order from an index.

Both lists are ordered newest first, ties by id (game/friends/follows.py `_listed`).
The followers index had no id, and there was none for the following list, so
PostgreSQL sorted a full list of 500 and joined every account of the site to it:
12.4 ms for the first 100 of 500 at 100,000 accounts, 0.9 ms with these indexes
(bench/friends_boards.py's database).
"""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0020_record_friends_index'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='follow',
            name='followers_newest',
        ),
        migrations.AddIndex(
            model_name='follow',
            index=models.Index(fields=['followed', '-at', '-id'], name='followers_newest_first'),
        ),
        migrations.AddIndex(
            model_name='follow',
            index=models.Index(fields=['follower', '-at', '-id'], name='following_newest_first'),
        ),
    ]
