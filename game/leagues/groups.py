"""
A league group as its page and the profile read it: the ~30 members of one week and
tier, best first, with the lines the week's end moves them by — from the points stored
on each member (game/leagues/members.py keeps them exact), one indexed query a page.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from game.base import days
from game.leagues import rules, weeks
from game.models import LeagueMember, LeagueWeek

TIER_NAMES = {
    "new_moon": gettext_lazy("New Moon"),
    "crescent": gettext_lazy("Crescent"),
    "first_quarter": gettext_lazy("First Quarter"),
    "gibbous": gettext_lazy("Gibbous"),
    "full_moon": gettext_lazy("Full Moon"),
}
"""The tiers in the reader's language: the moon's phases, as the rating ranks say them."""


def tier_name(tier):
    return str(TIER_NAMES[rules.TIERS[tier]])


def week_name(monday):
    """The week as its address names it: 2026-W49."""
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02}"


@dataclass
class Line:
    """One member's line: place, name, points, and where the week's end moves it."""

    place: int
    user_id: int
    name: str
    points: int
    outcome: str
    mine: bool


def group(member):
    """The lines of `member`'s group, best first; a settled week's as settled, a week
    in play's as it would end now."""
    rows = list(
        LeagueMember.objects.filter(
            week=member.week, tier=member.tier, group=member.group
        ).select_related("user")
    )
    order = weeks.ranked(rows)
    if LeagueWeek.objects.filter(week=member.week).exists():
        moves = {row: row.outcome for row in rows}
    else:
        moves = rules.outcomes([(row, row.points) for row in order], member.tier)
    return [
        Line(
            place, row.user_id, row.user.get_username(), row.points, moves[row], row.pk == member.pk
        )
        for place, row in enumerate(order, start=1)
    ]


def membership(user, week):
    """The account's place in `week`, or None (it has not played that week)."""
    return LeagueMember.objects.filter(user=user, week=week).first()


def last_settled(user):
    """The account's membership of its latest settled week (rank and outcome), or None."""
    settled = LeagueWeek.objects.values("week")
    return LeagueMember.objects.filter(user=user, week__in=settled).order_by("-week").first()


def summary(user):
    """The account's league in short, for its profile and the API: this week's tier,
    place and points (None before it plays), and its latest settled week's result."""
    this_week = rules.week_start(days.today())
    member = membership(user, this_week)
    place = None
    if member:
        place = next(line.place for line in group(member) if line.mine)
    last = last_settled(user)
    return {
        "week": week_name(this_week),
        "tier": rules.TIERS[member.tier] if member else None,
        "tier_name": tier_name(member.tier) if member else None,
        "place": place,
        "points": member.points if member else None,
        "last_week": _settled(last) if last else None,
    }


def _settled(member):
    return {
        "week": week_name(member.week),
        "tier": rules.TIERS[member.tier],
        "tier_name": tier_name(member.tier),
        "place": member.rank,
        "points": member.points,
        "outcome": member.outcome,
    }
