"""An event entry keeps a keyed digest of the address it joined from (never the address),
so the peeks of a spare entry from that address under an event's deal count against the
real entry (game/race/fairplay.py, docs/fair-play.md "Events"). Entries made before
have none: nothing to compare them by."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0023_farming_guards'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='evententry',
            name='address_tag',
            field=models.CharField(blank=True, default='', help_text="a keyed digest of the address it joined from, never the address: its entries' peeks count together (game/race/fairplay.py)", max_length=16),
        ),
        migrations.AddIndex(
            model_name='evententry',
            index=models.Index(fields=['event', 'address_tag'], name='event_entry_address'),
        ),
    ]
