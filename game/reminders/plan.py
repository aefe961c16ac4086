"""
What is due, planned once: each reminder is a `Reminder` row keyed by what it is about
(the local day, the event, the challenge, the league week), made with get_or_create on
a unique key, so the job running every minute — or twice at once — plans each once.
Texts are in the language the device subscribed in.
"""

import datetime
import zoneinfo

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext

from game.base import days
from game.leagues import groups, rules
from game.models import Entry, EventEntry, LeagueMember, PushSubscription, Reminder


def plan(now=None):
    """Every reminder due at `now` planned; how many were new."""
    now = now or timezone.now()
    return _daily(now) + _events(now) + _leagues(now)


def once(subscription, kind, key, texts, url, due):
    """The reminder planned unless it was already; whether it is new. `texts()` gives
    (title, body), called in the device's language."""
    with translation.override(subscription.language):
        title, body = texts()
    payload = {"title": title, "body": body, "url": url, "tag": kind}
    _, created = Reminder.objects.get_or_create(
        subscription=subscription, kind=kind, key=key, defaults={"payload": payload, "due_at": due}
    )
    return created


def challenged(challenge):
    """A challenge was made: its account's devices told at once."""
    name = challenge.challenger.get_username()
    texts = lambda: (  # noqa: E731 - read in the device's language
        gettext("You are challenged"),
        gettext("%(name)s challenges you to a race.") % {"name": name},
    )
    subscriptions = PushSubscription.objects.filter(user=challenge.challenged, challenges=True)
    for subscription in subscriptions:
        once(
            subscription,
            Reminder.CHALLENGE,
            f"challenge {challenge.pk}",
            texts,
            "/me/",
            timezone.now(),
        )


def _daily(now):
    """At the local hour each device picked, unless its player played today's deal."""
    today, planned = days.today(), 0
    for subscription in PushSubscription.objects.filter(daily=True):
        local = now.astimezone(zoneinfo.ZoneInfo(subscription.time_zone))
        if local.hour != subscription.daily_hour:
            continue
        if Entry.objects.filter(player_key=subscription.player_key, daily_date=today).exists():
            continue
        texts = lambda: (  # noqa: E731
            gettext("Today's deal is ready"),
            gettext("One deal for everyone today: how fast can you clear it?"),
        )
        planned += once(
            subscription, Reminder.DAILY, local.date().isoformat(), texts, "/daily/", now
        )
    return planned


def _events(now):
    """An event joined starts within HALFMOON_REMINDER_EVENT_S: its players' devices."""
    soon = now + datetime.timedelta(seconds=settings.HALFMOON_REMINDER_EVENT_S)
    entries = EventEntry.objects.filter(event__starts_at__gt=now, event__starts_at__lte=soon)
    planned = 0
    for entry in entries.select_related("event"):
        event = entry.event
        texts = lambda event=event: (  # noqa: E731
            gettext("%(title)s starts soon") % {"title": event.title},
            gettext("The event you joined starts at %(time)s UTC.")
            % {"time": event.starts_at.astimezone(datetime.UTC).strftime("%H:%M")},
        )
        subscriptions = PushSubscription.objects.filter(player_key=entry.player_key, events=True)
        for subscription in subscriptions:
            url = f"/events/{event.pk}/"
            planned += once(subscription, Reminder.EVENT, f"event {event.pk}", texts, url, now)
    return planned


def _leagues(now):
    """Saturday from noon (UTC), the week ending the next night: a member on a promotion
    line, told once."""
    if now.astimezone(datetime.UTC).weekday() != 5 or now.astimezone(datetime.UTC).hour < 12:
        return 0
    week, planned = rules.week_start(days.today()), 0
    key = f"league {groups.week_name(week)}"
    told = Reminder.objects.filter(kind=Reminder.LEAGUE, key=key).values("subscription")
    waiting = PushSubscription.objects.filter(leagues=True, user__isnull=False).exclude(pk__in=told)
    for subscription in waiting:
        member = LeagueMember.objects.filter(user_id=subscription.user_id, week=week).first()
        if member is None or not _moving_up(member):
            continue
        texts = lambda: (  # noqa: E731
            gettext("Your league week ends tomorrow"),
            gettext("You are on a promotion line: one more game keeps you there."),
        )
        planned += once(subscription, Reminder.LEAGUE, key, texts, "/leagues/", now)
    return planned


def _moving_up(member):
    return any(line.mine and line.outcome == rules.UP for line in groups.group(member))
