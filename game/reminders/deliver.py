"""
What is due, sent: each reminder row taken by one job at a time (a row lock that a
second job skips), sealed and posted (game/reminders/push.py), and marked sent; a device
its push service forgot is removed; a failure is tried again on the next run, three
times in all; a reminder more than an hour late is dropped (it would be noise).
"""

import datetime

from django.db import transaction
from django.utils import timezone

from game.models import Reminder
from game.reminders import push

BATCH = 100
ATTEMPTS = 3
LATE = datetime.timedelta(hours=1)


def deliver(now=None):
    """Send every reminder due; {"sent": n, "gone": n, "failed": n, "late": n}."""
    now = now or timezone.now()
    counts = {"sent": 0, "gone": 0, "failed": 0}
    counts["late"] = Reminder.objects.filter(status=Reminder.PENDING, due_at__lt=now - LATE).update(
        status=Reminder.FAILED
    )
    tried = set()  # a failure waits for the next run
    while True:
        with transaction.atomic():
            due = Reminder.objects.select_for_update(skip_locked=True, of=("self",)).filter(
                status=Reminder.PENDING, due_at__lte=now, attempts__lt=ATTEMPTS
            )
            due = due.exclude(pk__in=tried).select_related("subscription").order_by("due_at")
            batch = list(due[:BATCH])
            for reminder in batch:
                tried.add(reminder.pk)
                counts[_send(reminder, now)] += 1
        if len(batch) < BATCH:
            return counts


def _send(reminder, now):
    outcome = push.send(reminder.subscription, reminder.payload)
    if outcome == push.GONE:
        reminder.subscription.delete()  # and its reminders
        return "gone"
    reminder.attempts += 1
    if outcome == push.SENT:
        reminder.status, reminder.sent_at = Reminder.SENT, now
    elif reminder.attempts >= ATTEMPTS:
        reminder.status = Reminder.FAILED
    reminder.save(update_fields=["attempts", "status", "sent_at"])
    return "sent" if outcome == push.SENT else "failed"
