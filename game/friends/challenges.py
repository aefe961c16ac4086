"""
Challenges: an account invites an account it follows to race, unless either blocked
the other. The invite is open for `OPEN_S` (2 minutes), one at a time per pair of
accounts (a partial unique index, whoever sent it); the challenged accepts — both
are seated in a new private race on a random deal, the challenger its host — or
declines, and the challenger's page learns which from its next poll (`inbox`).

Every function takes `now`, so a test moves the clock instead of sleeping.
"""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from game.base.errors import GameError
from game.deals import codes
from game.friends import follows
from game.models import Challenge
from game.players import accounts
from game.race import actions
from game.reminders import plan

OPEN_S = 120
"""How long a challenge waits for its answer."""
SHOWN_S = 300
"""How long a challenge stays in its sender's list after it was sent."""


def _expire(now, **among):
    """Close the challenges among `among` whose time ran out."""
    stale = Challenge.objects.filter(status=Challenge.OPEN, expires_at__lte=now, **among)
    stale.update(status=Challenge.EXPIRED)


def _pair(user, other):
    return Q(challenger=user, challenged=other) | Q(challenger=other, challenged=user)


def send(user, other, now=None):
    """`user` challenges `other`, whom they follow; `challenge_open` if one is open."""
    now = now or timezone.now()
    follows.not_yourself(user, other)
    follows.refuse_if_blocked(user, other)
    if not follows.follows(user, other):
        raise GameError("not_following", f"follow {other.get_username()} before challenging them")
    _expire(now, id__in=Challenge.objects.filter(_pair(user, other)).values("id"))
    try:
        with transaction.atomic():
            challenge = Challenge.objects.create(
                challenger=user,
                challenged=other,
                created_at=now,
                expires_at=now + timedelta(seconds=OPEN_S),
            )
            plan.challenged(challenge)  # a push to the devices that asked (game/reminders/)
            return challenge
    except IntegrityError:
        raise GameError("challenge_open", "a challenge between you two is already open") from None


def _open_to(user, challenge_id, now, as_challenger=False):
    """The open challenge `challenge_id` sent to `user` (by `user`, as challenger),
    locked; `challenge_gone` once it expired, was answered or is not theirs."""
    _expire(now, id=challenge_id)
    mine = {"challenger": user} if as_challenger else {"challenged": user}
    found = Challenge.objects.select_for_update(of=("self",)).filter(
        id=challenge_id, status=Challenge.OPEN, **mine
    )
    challenge = found.select_related("challenger__account", "challenged__account").first()
    if challenge is None:
        raise GameError("challenge_gone", "this challenge expired or was answered already")
    return challenge


def accept(user, challenge_id, now=None):
    """The challenged accepts: a private race with both seated, the challenger its host."""
    now = now or timezone.now()
    with transaction.atomic():
        challenge = _open_to(user, challenge_id, now)
        host, guest = challenge.challenger, challenge.challenged
        race = actions.create_race(
            codes.random_deal(), host.account.player_key, name=host.get_username(), deal_hidden=True
        )
        actions.add_entry(race, guest.account.player_key, guest.get_username())
        challenge.status, challenge.answered_at, challenge.race = Challenge.ACCEPTED, now, race
        challenge.save(update_fields=["status", "answered_at", "race"])
    return race


def decline(user, challenge_id, now=None):
    _answer(user, challenge_id, Challenge.DECLINED, now or timezone.now())


def cancel(user, challenge_id, now=None):
    """The challenger takes their challenge back before it is answered."""
    _answer(user, challenge_id, Challenge.CANCELLED, now or timezone.now(), as_challenger=True)


def _answer(user, challenge_id, status, now, as_challenger=False):
    with transaction.atomic():
        challenge = _open_to(user, challenge_id, now, as_challenger)
        challenge.status, challenge.answered_at = status, now
        challenge.save(update_fields=["status", "answered_at"])


def _line(challenge, now, other):
    ran_out = challenge.status == Challenge.OPEN and challenge.expires_at <= now
    line = {
        "id": challenge.id,
        "name": accounts.listed_name(other),
        "status": Challenge.EXPIRED if ran_out else challenge.status,
        "expires_in_s": max(0, round((challenge.expires_at - now).total_seconds())),
    }
    if challenge.race_id:
        line["url"] = challenge.race.get_absolute_url()
    return line


def inbox(user, now=None):
    """What a poll answers: the open challenges sent to `user`, and the ones `user`
    sent in the last minutes with how each ended (an accepted one: its race). Reads
    only: a challenge whose time ran out reads expired before any write says so."""
    now = now or timezone.now()
    since = now - timedelta(seconds=SHOWN_S)
    received = Challenge.objects.filter(challenged=user, status=Challenge.OPEN, expires_at__gt=now)
    sent = Challenge.objects.filter(challenger=user, created_at__gt=since)
    return {
        "received": [
            _line(c, now, c.challenger) for c in received.select_related("challenger__account")
        ],
        "sent": [
            _line(c, now, c.challenged)
            for c in sent.select_related("challenged__account", "race")[:10]
        ],
    }
