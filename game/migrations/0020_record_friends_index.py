"""A covering index for the Friends views of the records boards (PostgreSQL only).

A Friends view numbers the records of up to 501 accounts (game/daily/boards.py,
`_statements`): one probe of (user, period, start) per account. With every column the
view reads in the index, each probe is an index-only scan, not an index scan and a
heap fetch: PostgreSQL's time for a 500-follow view fell from 6.8 to 4.0-5.1 ms at
100,000 accounts (bench/friends_boards.py's database). SQLite has no covering indexes
(Django warns of `include` there), and its boards are a developer's, so it gets none.
"""

from django.db import migrations

INDEX = "record_friends"
COLUMNS = "id, wins, last_won, best_ms, best_on, streak, streak_on"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX {INDEX} ON game_record (user_id, period, start) INCLUDE ({COLUMNS})"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0019_eventschedule_weekdays"),
    ]

    operations = [migrations.RunPython(create, drop)]
