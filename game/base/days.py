"""
The day: every daily rule (one deal a day, one attempt a day, a code secret until its
day is over) counts days in UTC, from this one clock, so tests can move it.
"""

import datetime

from django.utils import timezone


def today():
    """Today's date in UTC: the day whose daily deal is being played."""
    return timezone.now().astimezone(datetime.UTC).date()


def end_of(date):
    """The instant `date` is over: the UTC midnight after it."""
    return datetime.datetime.combine(
        date + datetime.timedelta(days=1), datetime.time(), datetime.UTC
    )


def next_deal_ms():
    """When the next daily deal comes (the next UTC midnight), in epoch milliseconds."""
    return int(end_of(today()).timestamp() * 1000)
