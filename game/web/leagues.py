"""
The leagues' pages: /leagues/ (your group this week, live from the stored points) and
/leagues/<YYYY-Www>/ (a past week's group as it was settled). Views only translate:
game/leagues/ decides who is in which group and who moves.
"""

import datetime

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.base import days, inputs, links
from game.leagues import groups, rules
from game.players import moderation

RULE = {
    "daily_won": rules.DAILY_WON,
    "daily_played": rules.DAILY_PLAYED,
    "race_finished": rules.RACE_FINISHED,
    "race_beaten": rules.RACE_OPPONENT_BEATEN,
    "pair_cap": rules.PAIR_CAP,
    "event_ranks": ", ".join(map(str, rules.EVENT_RANK_POINTS)),
    "event_count": len(rules.EVENT_RANK_POINTS),
    "event_played": rules.EVENT_PLAYED,
    "min_moves": rules.MIN_MOVES,
}
"""The rule's numbers as the page states them (game/leagues/rules.py)."""


@require_safe
def this_week(request):
    """/leagues/: the reader's group of the week today is in."""
    return _page(request, rules.week_start(days.today()))


@require_safe
def week(request, week):
    """/leagues/<YYYY-Www>/: the reader's group of a week begun (404 otherwise)."""
    monday = inputs.week_or_404(week)
    if monday > days.today():
        raise Http404(gettext("This week has not begun."))
    return _page(request, monday)


def _page(request, monday):
    member = None
    if request.user.is_authenticated:
        member = groups.membership(request.user, monday)
    lines = groups.group(member) if member else []
    hidden = moderation.hidden_users(line.user_id for line in lines)
    current = monday == rules.week_start(days.today())
    step = datetime.timedelta(days=7)
    context = {
        "week": groups.week_name(monday),
        "current": current,
        "ends": monday + datetime.timedelta(days=6),
        "member": member,
        "tier": groups.tier_name(member.tier) if member else None,
        "lines": lines,
        "hidden": hidden,
        "movers": rules.movers(len(lines)) if lines else 0,
        "tiers": [groups.tier_name(tier) for tier in range(len(rules.TIERS))],
        "group_size": rules.GROUP_SIZE,
        "rule": RULE,
        "previous": links.route("game:league-week", groups.week_name(monday - step)),
        "next": None
        if current
        else links.route("game:league-week", groups.week_name(monday + step)),
    }
    return render(request, "game/leagues.html", context)
