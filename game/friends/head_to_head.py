"""
Head to head: the races two accounts finished against each other, each decided as a
rated race decides a pair (game/ratings/pairs.py: a win beats anything, two wins by
time, two unfinished games by score then moves, counted out loses), rated or not. A
profile shows it to whoever follows its player: the tally and the latest races.
"""

from django.db.models import Q

from game.models import Entry, Race
from game.ratings import pairs
from game.results.rated import pair_result

LATEST = 5
"""The races listed under the tally, newest first."""


def finished_against(user, other):
    """`user`'s finished, not disqualified entries in finished races `other` also
    finished, newest first, each with `theirs`: the other's entry."""
    done = Q(status__in=Entry.DONE) & ~Q(review=Entry.DISQUALIFIED)
    shared = Entry.objects.filter(done, user=other, race__status=Race.FINISHED)
    theirs = {
        entry.race_id: entry
        for entry in shared.filter(race__in=Entry.objects.filter(done, user=user).values("race_id"))
    }
    mine = Entry.objects.filter(done, user=user, race_id__in=theirs).select_related("race")
    mine = list(mine.order_by("-race__finished_at", "-pk"))
    for entry in mine:
        entry.theirs = theirs[entry.race_id]
    return mine


def record(user, other):
    """{"won", "lost", "drawn": counts, "latest": [(entry, score)]} of `user` against
    `other` (score 1, 0.5 or 0), or None when they never finished a race together."""
    found = finished_against(user, other)
    if not found:
        return None
    scored = [
        (entry, pairs.score(pair_result(entry), pair_result(entry.theirs))) for entry in found
    ]
    scores = [score for _, score in scored]
    return {
        "won": scores.count(1.0),
        "lost": scores.count(0.0),
        "drawn": scores.count(0.5),
        "latest": scored[:LATEST],
    }
