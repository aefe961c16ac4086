"""``manage.py send_reminders [--every S]``: plan what is due and send it (game/reminders/).

Run it every minute (cron), or as a service with ``--every 10`` so a challenge's push
arrives within seconds; two runs at once never send a reminder twice.
"""

import time

from django.core.management.base import BaseCommand

from game.reminders import deliver, plan, push


class Command(BaseCommand):
    help = "Plan the reminders due now and send them by web push (once each)."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, help="run again every S seconds, forever")

    def handle(self, every, **options):
        if not push.enabled():
            self.stderr.write("reminders are off: HALFMOON_VAPID_PRIVATE_KEY is not set")
            return
        while True:
            planned = plan.plan()
            sent = deliver.deliver()
            self.stdout.write(
                f"{planned} planned; " + ", ".join(f"{n} {k}" for k, n in sent.items())
            )
            if not every:
                return
            time.sleep(every)
