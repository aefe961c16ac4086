"""
The daily job's pruning (game/staff/retention.py): what nobody reads any more goes,
results and whatever a page still shows stay.
"""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from game.engine.examples import RULE_BOOK_DEAL
from game.models import Challenge, Deal, Entry, QuickSeat, Race
from game.staff import retention

pytestmark = pytest.mark.django_db

LONG_AGO = timedelta(days=retention.KEEP_DAYS + 1)


def race(room, status, age, mode=Race.RACE):
    made = Race.objects.create(
        room=room, deal=Deal.for_code(RULE_BOOK_DEAL), mode=mode, status=status
    )
    Race.objects.filter(pk=made.pk).update(created_at=timezone.now() - age)
    Entry.objects.create(race=made, player_key=f"key{room}", name="Ada")
    return made


def challenge(a, b, status, age):
    at = timezone.now() - age
    return Challenge.objects.create(
        challenger=a, challenged=b, status=status, created_at=at, expires_at=at
    )


def test_old_unstarted_races_and_closed_challenges_go_results_stay():
    old_link = race("OLDLNK", Race.LOBBY, LONG_AGO)
    played = race("PLAYED", Race.FINISHED, LONG_AGO)
    fresh = race("FRESH1", Race.LOBBY, timedelta(days=1))
    event = race("EVENT1", Race.LOBBY, LONG_AGO, mode=Race.EVENT)
    a, b = (User.objects.create_user(name, password="pw") for name in ("ada", "bob"))
    old = challenge(a, b, Challenge.DECLINED, LONG_AGO)
    recent = challenge(a, b, Challenge.EXPIRED, timedelta(days=1))
    now = timezone.now()
    QuickSeat.objects.create(player_key="gone", name="Gone", since=now, seen_at=now - LONG_AGO)

    removed = retention.prune()

    assert removed == {"quick seats": 1, "challenges": 1, "races never started": 1}
    assert set(Race.objects.values_list("pk", flat=True)) == {played.pk, fresh.pk, event.pk}
    assert not Race.objects.filter(pk=old_link.pk).exists()
    assert list(Challenge.objects.values_list("pk", flat=True)) == [recent.pk]
    assert not Challenge.objects.filter(pk=old.pk).exists()
    assert Entry.objects.filter(race=played).count() == 1


def test_the_daily_job_says_what_it_pruned():
    race("OLDLNK", Race.LOBBY, LONG_AGO)
    out = StringIO()
    call_command("daily_upkeep", "--days", "0", "--workers", "1", stdout=out, stderr=StringIO())
    assert "1 races never started removed" in out.getvalue()
