"""What the rules against farming a rating read (game/race/rated.py, docs/ratings.md):
a keyed hash of the address an account signed up and last logged in from (never the
address), and each rated result's gain counted against the day's cap on gains from
new or same-address accounts."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0022_packed_moves"),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="last_address",
            field=models.CharField(
                blank=True, help_text="the same of its latest log-in", max_length=32
            ),
        ),
        migrations.AddField(
            model_name="account",
            name="signup_address",
            field=models.CharField(
                blank=True,
                help_text="a keyed hash of the address it signed up from, never the address (game/base/clients.py `address_hash`): accounts of one address feed no rating",
                max_length=32,
            ),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="capped",
            field=models.FloatField(
                default=0.0,
                help_text="rating gained against accounts created recently or from the player's address: the day's cap counts these (game/race/rated.py)",
            ),
        ),
    ]
