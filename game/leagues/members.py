"""
League membership kept exact: each result that may count (a race finished, a staff
decision, an event's final ranks) recomputes its accounts' points for that week from
the stored results (game/leagues/scores.py), with the pure rule (game/leagues/rules.py). Recomputing
rather than adding makes a second call harmless and a disqualification take its
points back. An account joins its week's group with its first such result.
"""

import datetime

from django.db import transaction
from django.utils import timezone

from game.base import sql
from game.leagues import rules, scores, weeks
from game.models import LeagueMember, LeagueWeek


def note(user_ids, at):
    """Recompute these accounts' points for the week of `at` (a result of theirs that
    may count changed); one with its first result of the week joins a group."""
    week = rules.week_start(timezone.localtime(at, datetime.UTC).date())
    for user_id in {pk for pk in user_ids if pk is not None}:
        found = scores.results(user_id, week)
        member = LeagueMember.objects.filter(user_id=user_id, week=week).first()
        if member is None and not found:
            continue
        member = member or join(user_id, week)
        points, scored_at = rules.week_points(found)
        if (member.points, member.scored_at) != (points, scored_at):
            member.points, member.scored_at = points, scored_at
            member.save(update_fields=["points", "scored_at"])


def note_race(race):
    """After a daily attempt or a rated race finished, or a staff decision on it."""
    if race.finished_at is not None and (race.daily_date or race.rated):
        note(race.entries.values_list("user_id", flat=True), race.finished_at)


def note_event(event):
    """After an event's final ranks were stored (or stored again)."""
    note(event.entries.values_list("user_id", flat=True), event.starts_at)


def join(user_id, week):
    """The account's place in `week`: the tier its last week left it in (that week
    settled first if the job has not yet), in the first group of the tier with room."""
    weeks.settle_due(before=week)
    tier = tier_for(user_id, week)
    with transaction.atomic():
        sql.hold(f"league {week} tier {tier}")
        member = LeagueMember.objects.filter(user_id=user_id, week=week).first()
        if member:
            return member
        return LeagueMember.objects.create(
            user_id=user_id, week=week, tier=tier, group=_group_with_room(week, tier)
        )


def tier_for(user_id, week):
    """The tier a week starts at: new accounts the lowest, then as the last week left it."""
    last = LeagueMember.objects.filter(user_id=user_id, week__lt=week).order_by("-week").first()
    if last is None:
        return 0
    settled = LeagueWeek.objects.filter(week=last.week).exists()
    return rules.next_tier(last.tier, last.outcome) if settled else last.tier


def _group_with_room(week, tier):
    """Groups fill one after the other: the newest has room, or a new one opens."""
    tier_members = LeagueMember.objects.filter(week=week, tier=tier)
    last = tier_members.order_by("-group").values_list("group", flat=True).first()
    if last is None:
        return 1
    return last if tier_members.filter(group=last).count() < rules.GROUP_SIZE else last + 1
