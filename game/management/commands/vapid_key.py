"""``manage.py vapid_key``: a new VAPID private key for HALFMOON_VAPID_PRIVATE_KEY, and
its public key (what browsers subscribe with). Made once per site: changing it
orphans every subscription."""

from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand

from game.reminders import push


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push reminders."

    def handle(self, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        raw = key.private_numbers().private_value.to_bytes(32, "big")
        self.stdout.write(f"HALFMOON_VAPID_PRIVATE_KEY={push.b64url_encode(raw)}")
