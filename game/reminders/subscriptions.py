"""
What each device asked to be reminded of: a browser's push subscription saved (or
changed, or forgotten) with the kinds its player turned on and the local hour for the
daily deal. Everything a browser sends is checked here; a bad field is a clear
`bad_field`, an address at a push service the server does not post to `push_refused`.
"""

import zoneinfo

from django.db import transaction

from game.base.errors import GameError
from game.models import PushSubscription
from game.reminders import push

KINDS = ("daily", "events", "challenges", "leagues")


def save(player_key, user, body, language):
    """Subscribe the device in `body` ({"subscription": {endpoint, keys: {p256dh, auth}},
    "kinds": {daily: bool…}, "hour": 0-23, "time_zone": "Europe/Paris"}), or change what
    it asked for; the device's row."""
    if not push.enabled():
        raise GameError("reminders_off", "this server sends no reminders (no VAPID key)")
    endpoint, p256dh, auth = _subscription(body.get("subscription"))
    fields = {**_kinds(body.get("kinds", {})), **_when(body)}
    with transaction.atomic():
        found, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "player_key": player_key,
                "user": user,
                "p256dh": p256dh,
                "auth": auth,
                "language": language[:8],
                **fields,
            },
        )
    return found


def forget(player_key, endpoint):
    """The device's subscription removed (its player turned reminders off there)."""
    return PushSubscription.objects.filter(player_key=player_key, endpoint=endpoint).delete()[0]


def of(player_key, endpoint):
    return PushSubscription.objects.filter(player_key=player_key, endpoint=endpoint).first()


def _subscription(found):
    if not isinstance(found, dict) or not isinstance(found.get("keys"), dict):
        raise GameError("bad_field", "subscription: the Push API's subscription object")
    endpoint, keys = found.get("endpoint"), found["keys"]
    texts = (endpoint, keys.get("p256dh"), keys.get("auth"))
    if not all(isinstance(text, str) and 0 < len(text) <= 1000 for text in texts):
        raise GameError("bad_field", "subscription: endpoint, keys.p256dh and keys.auth")
    if not push.allowed(endpoint):
        raise GameError("push_refused", "the server posts to known push services only")
    try:
        sizes = len(push.b64url_decode(texts[1])), len(push.b64url_decode(texts[2]))
    except ValueError:
        sizes = None
    if sizes != (65, 16):
        raise GameError("bad_field", "keys: a P-256 public key and a 16-byte auth secret")
    return texts


def _kinds(found):
    if not isinstance(found, dict) or not all(isinstance(v, bool) for v in found.values()):
        raise GameError("bad_field", "kinds: {daily, events, challenges, leagues: true/false}")
    return {kind: found[kind] for kind in KINDS if kind in found}


def _when(body):
    hour, zone = body.get("hour", 9), body.get("time_zone", "UTC")
    if not isinstance(hour, int) or isinstance(hour, bool) or not 0 <= hour <= 23:
        raise GameError("bad_field", "hour: the local hour of the daily reminder, 0-23")
    if not isinstance(zone, str) or zone not in zoneinfo.available_timezones():
        raise GameError("bad_field", "time_zone: an IANA time zone such as Europe/Paris")
    return {"daily_hour": hour, "time_zone": zone}
