"""
Reminders by web push (game/reminders/), delivered to a push service on this machine
that decrypts what it receives as a browser would (RFC 8291) and checks the server's
VAPID signature (RFC 8292): a challenge, the daily deal at the local hour picked, an
event joined, a league week's promotion line — each once, none that was turned off,
none to a push service the settings do not name; the events as calendars.
"""

import base64
import datetime
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from game.friends import challenges, follows
from game.leagues import rules
from game.models import (
    Event,
    EventEntry,
    EventSchedule,
    LeagueMember,
    PushSubscription,
    Reminder,
)
from game.reminders import deliver, plan, push
from tests.race.test_fair_play import daily_result

pytestmark = pytest.mark.django_db


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService(ThreadingHTTPServer):
    """A push service: keeps every message it receives; an address with "gone" in it
    answers 410, as a service does for a device it forgot."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Receiver)
        self.received = []

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.server_port}"


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append((self.path, dict(self.headers), body))
        self.send_response(410 if "gone" in self.path else 201)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def service(settings):
    server = PushService()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    key = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    settings.HALFMOON_VAPID_PRIVATE_KEY = b64(key.to_bytes(32, "big"))
    settings.HALFMOON_PUSH_SERVICES = [server.origin]
    yield server
    server.shutdown()


class Device:
    """A browser's push subscription: its own key pair and auth secret."""

    def __init__(self, service, name):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": f"{service.origin}/push/{name}",
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, body):
        """The message as the browser decrypts it."""
        opened = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth)
        return json.loads(opened)


def subscribe(client, device, **choices):
    body = {"subscription": device.subscription, "hour": 9, "time_zone": "UTC", **choices}
    answer = client.post("/api/push/", body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return PushSubscription.objects.get(endpoint=device.subscription["endpoint"])


def signed_in(name):
    user = User.objects.create_user(name, password="half-moon-42!")
    client = Client()
    client.force_login(user)
    return user, client


def assert_signed_for(headers, origin):
    """The VAPID header: a JWT for this push service, signed by the server's key."""
    token, key = headers["Authorization"].removeprefix("vapid t=").split(",k=")
    head, claims, signature = token.split(".")
    assert json.loads(push.b64url_decode(claims))["aud"] == origin
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), push.b64url_decode(key))
    raw = push.b64url_decode(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    assert key == push.public_key()


def test_a_challenge_reaches_the_device_sealed_and_signed_once(service):
    ada, _ = signed_in("ada")
    bob, bob_client = signed_in("bob")
    device = Device(service, "bob-phone")
    subscribe(bob_client, device)
    follows.follow(ada, bob)
    challenges.send(ada, bob)
    call_command("send_reminders")
    call_command("send_reminders")  # nothing twice
    assert len(service.received) == 1
    path, headers, body = service.received[0]
    assert path == "/push/bob-phone" and headers["Content-Encoding"] == "aes128gcm"
    assert device.read(body) == {
        "title": "You are challenged",
        "body": "ada challenges you to a race.",
        "url": "/me/",
        "tag": "challenge",
    }
    assert_signed_for(headers, service.origin)


def test_the_daily_reminder_comes_at_the_local_hour_once_unless_played(service):
    paris = Client()
    subscribe(paris, Device(service, "paris"), kinds={"daily": True}, time_zone="Europe/Paris")
    today = timezone.now().astimezone(datetime.UTC).date()
    at = lambda hour: datetime.datetime.combine(today, datetime.time(hour, 30), datetime.UTC)  # noqa: E731
    assert plan.plan(at(7)) == 0  # 8:30 in Paris
    assert plan.plan(at(8)) == 1  # 9:30 in Paris
    assert plan.plan(at(8)) == 0
    assert deliver.deliver(at(8))["sent"] == 1
    player = PushSubscription.objects.get(endpoint__endswith="/paris")
    Reminder.objects.all().delete()
    daily_result(today, "early-bird")
    player.player_key = User.objects.get(username="early-bird").account.player_key
    player.save()
    assert plan.plan(at(8)) == 0  # played today's deal already


def test_an_event_joined_reminds_its_players_ten_minutes_before(service):
    joined, other, quiet = Client(), Client(), Client()
    subscribe(joined, Device(service, "joined"))
    subscribe(other, Device(service, "other"))
    subscribe(quiet, Device(service, "quiet"), kinds={"events": False})
    now = timezone.now()
    event = Event.objects.create(
        title="Evening race", starts_at=now + datetime.timedelta(minutes=5)
    )
    for client in (joined, quiet):
        key = PushSubscription.objects.get(
            endpoint__endswith="/joined" if client is joined else "/quiet"
        )
        EventEntry.objects.create(event=event, player_key=key.player_key, name="x")
    assert plan.plan(now) == 1
    reminder = Reminder.objects.get()
    assert reminder.subscription.endpoint.endswith("/joined")
    assert reminder.payload["url"] == f"/events/{event.pk}/"
    assert reminder.payload["title"] == "Evening race starts soon"


def test_a_promotion_line_is_told_on_saturday_and_a_forgotten_device_removed(service):
    week = rules.week_start(datetime.date(2026, 11, 30))
    saturday = datetime.datetime(2026, 12, 5, 13, tzinfo=datetime.UTC)
    devices = {}
    for n in range(6):
        user, client = signed_in(f"lg{n}")
        devices[n] = subscribe(client, Device(service, f"gone-{n}" if n == 0 else f"lg{n}"))
        LeagueMember.objects.create(user=user, week=week, tier=0, group=1, points=60 - n)
    assert plan.plan(saturday - datetime.timedelta(days=1)) == 0  # Friday
    assert plan.plan(saturday) == 1  # one of six moves up: lg0
    assert Reminder.objects.get().subscription == devices[0]
    assert deliver.deliver(saturday) == {"sent": 0, "gone": 1, "failed": 0, "late": 0}
    assert not PushSubscription.objects.filter(pk=devices[0].pk).exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"subscription": {"endpoint": "https://metadata.internal/x", "keys": {}}}, "bad_field"),
        ({"endpoint": "http://169.254.169.254/latest/"}, "push_refused"),
        ({"keys": {"p256dh": "AAAA", "auth": "AAAA"}}, "bad_field"),
        ({"hour": 24}, "bad_field"),
        ({"hour": True}, "bad_field"),
        ({"time_zone": "Mars/Olympus"}, "bad_field"),
        ({"kinds": {"daily": "yes"}}, "bad_field"),
    ],
)
def test_a_bad_subscription_is_a_clear_error_and_nothing_is_saved(service, change, code):
    body = {"subscription": Device(service, "x").subscription, "hour": 9, "time_zone": "UTC"}
    if "endpoint" in change or "keys" in change:
        body["subscription"] = {**body["subscription"], **change}
    else:
        body.update(change)
    answer = Client().post("/api/push/", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == code
    assert not PushSubscription.objects.exists()


def test_without_a_vapid_key_the_page_and_the_api_say_reminders_are_off(settings):
    settings.HALFMOON_VAPID_PRIVATE_KEY = ""
    assert "This server sends no reminders." in Client().get("/me/reminders/").content.decode()
    answer = Client().post("/api/push/", {}, content_type="application/json")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "reminders_off"


def test_the_events_calendar_has_each_schedule_as_a_weekly_rule_and_each_event():
    EventSchedule.objects.create(title="Evening; race", at=datetime.time(20), weekdays="05")
    soon = timezone.now() + datetime.timedelta(days=2)
    event = Event.objects.create(title="Solstice", starts_at=soon, minutes=30)
    feed = Client().get("/events/calendar.ics")
    assert feed["Content-Type"] == "text/calendar; charset=utf-8"
    text = feed.content.decode()
    assert "RRULE:FREQ=WEEKLY;BYDAY=MO,SA" in text and "SUMMARY:Evening\\; race" in text
    assert f"DTSTART:{soon.astimezone(datetime.UTC):%Y%m%dT%H%M%SZ}" in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    one = Client().get(f"/events/{event.pk}/calendar.ics").content.decode()
    assert one.count("BEGIN:VEVENT") == 1 and "SUMMARY:Solstice" in one
    assert Client().get("/events/999999/calendar.ics").status_code == 404
