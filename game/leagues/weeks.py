"""
A week's end: every group ranked by its points (recomputed from the stored results, so
a late staff decision is in), the top moving up and the bottom down (game/leagues/rules.py).
Exactly once: the settlement runs under a lock of the week and writes its `LeagueWeek`
row in the same transaction, so a second run (the daily job twice, two processes, the
first join of the next week) finds the row and does nothing.
"""

import datetime
from itertools import groupby

from django.db import transaction
from django.utils import timezone

from game.base import sql
from game.leagues import rules, scores
from game.models import LeagueMember, LeagueWeek


def settle_due(before=None):
    """Settle every week over (before `before`, this week by default) with members and no
    settlement yet, oldest first; the weeks settled."""
    current = before or rules.week_start(timezone.now().date())
    due = (
        LeagueMember.objects.filter(week__lt=current)
        .exclude(week__in=LeagueWeek.objects.values("week"))
        .values_list("week", flat=True)
        .distinct()
        .order_by("week")
    )
    return [week for week in list(due) if settle(week)]


def settle(week):
    """Rank every group of `week` and store who moves; False when it was settled already."""
    with transaction.atomic():
        sql.hold(f"league week {week}")
        if LeagueWeek.objects.filter(week=week).exists():
            return False
        members = list(LeagueMember.objects.filter(week=week).order_by("tier", "group"))
        for member in members:
            member.points, member.scored_at = rules.week_points(
                scores.results(member.user_id, week)
            )
        for (tier, _), group in groupby(members, key=lambda member: (member.tier, member.group)):
            _rank(list(group), tier)
        LeagueMember.objects.bulk_update(members, ["points", "scored_at", "rank", "outcome"])
        LeagueWeek.objects.create(week=week, settled_at=timezone.now(), members=len(members))
        return True


def ranked(members):
    """A group's members best first: points, then who reached them first, then who joined."""
    far = datetime.datetime.max.replace(tzinfo=datetime.UTC)
    return sorted(members, key=lambda member: (-member.points, member.scored_at or far, member.pk))


def _rank(group, tier):
    order = ranked(group)
    moves = rules.outcomes([(member, member.points) for member in order], tier)
    for place, member in enumerate(order, start=1):
        member.rank, member.outcome = place, moves[member]
