"""
The events as calendars (RFC 5545), for a player whose calendar app should remind them:
/events/calendar.ics — every recurring schedule as a weekly rule and every one-off
event to come — and /events/<id>/calendar.ics, one event. Times are UTC, as the
events are kept.
"""

import datetime

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.models import Event, EventSchedule

BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
AHEAD = datetime.timedelta(days=28)


def _text(value):
    """A TEXT value escaped (RFC 5545 3.3.11)."""
    for plain, escaped in (("\\", "\\\\"), (";", "\\;"), (",", "\\,"), ("\n", "\\n")):
        value = value.replace(plain, escaped)
    return value


def _fold(line):
    """A content line folded at 75 octets (3.1)."""
    data, parts = line.encode(), []
    while len(data) > 75:
        cut = 75 if not parts else 74
        while (data[cut] & 0xC0) == 0x80:  # never inside a character
            cut -= 1
        parts.append(data[:cut].decode())
        data = data[cut:]
    parts.append(data.decode())
    return "\r\n ".join(parts)


def _stamp(at):
    return at.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def _event(request, uid, title, start, minutes, url, rule=None):
    lines = [
        "BEGIN:VEVENT",
        f"UID:{uid}@{request.get_host().split(':')[0]}",
        f"DTSTAMP:{_stamp(timezone.now())}",
        f"DTSTART:{_stamp(start)}",
        f"DTEND:{_stamp(start + datetime.timedelta(minutes=minutes))}",
        f"SUMMARY:{_text(title)}",
        f"URL:{request.build_absolute_uri(url)}",
        *([rule] if rule else []),
        "END:VEVENT",
    ]
    return lines


def _calendar(name, events):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Half Moon Race//events//EN"]
    lines += [f"X-WR-CALNAME:{_text(name)}", *events, "END:VCALENDAR"]
    body = "\r\n".join(_fold(line) for line in lines) + "\r\n"
    answer = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    answer["Content-Disposition"] = 'inline; filename="half-moon-events.ics"'
    return answer


@require_safe
def events_calendar(request):
    """Every active schedule as a weekly rule, and the one-off events of the coming weeks."""
    lines = []
    for schedule in EventSchedule.objects.filter(active=True).order_by("pk"):
        first = _next_start(schedule)
        days = ",".join(BYDAY[int(day)] for day in schedule.weekdays)
        rule = f"RRULE:FREQ=WEEKLY;BYDAY={days}"
        url = "/events/"
        lines += _event(
            request, f"schedule-{schedule.pk}", schedule.title, first, schedule.minutes, url, rule
        )
    now = timezone.now()
    one_off = Event.objects.filter(
        schedule__isnull=True, starts_at__gt=now - datetime.timedelta(days=1)
    )
    for event in one_off.filter(starts_at__lt=now + AHEAD).order_by("starts_at"):
        lines += _one_event(request, event)
    return _calendar(gettext("Half Moon Race events"), lines)


@require_safe
def event_calendar(request, event_id):
    """One event, to add to a calendar."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise Http404(gettext("There is no event %(id)s.") % {"id": event_id})
    return _calendar(event.title, _one_event(request, event))


def _one_event(request, event):
    url = f"/events/{event.pk}/"
    return _event(request, f"event-{event.pk}", event.title, event.starts_at, event.minutes, url)


def _next_start(schedule):
    """The schedule's next start from today (UTC): where its weekly rule begins."""
    today = timezone.now().astimezone(datetime.UTC).date()
    for ahead in range(7):
        day = today + datetime.timedelta(days=ahead)
        if schedule.runs_on(day):
            return datetime.datetime.combine(day, schedule.at, tzinfo=datetime.UTC)
    return datetime.datetime.combine(today, schedule.at, tzinfo=datetime.UTC)
