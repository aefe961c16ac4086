"""
Moderation: staff act on results and names, and every act is logged with who and why.

- A result is confirmed or disqualified with `fairplay.decide` (the `Review` log).
  A disqualified result leaves every ranked board at once: the boards read
  `Entry.ranked` straight from the database, with nothing cached in between.
- A name is hidden from the leaderboards (or shown again) with `hide_name` (the
  `NameReview` log; `Account.name_hidden` is the current state). Ranks do not
  move: the daily board, the month's winners and the all-time boards show the
  result as "Name hidden" instead, with no link to the profile. The name each of its
  games and event entries stored is changed with it (`accounts.shown_name`), so
  replays (page and JSON), race frames, the API and event standings, which read the
  stored name, say "Name hidden" too; showing it again puts the username back.
"""

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from game.models import Account, DailyDeal, Entry, EventEntry, NameReview
from game.players import accounts, identity


def flagged():
    """The results the fair-play checks flagged and no one reviewed yet, newest first:
    only those a confirmation would rank (`fairplay.rankable`: an account's, and a daily
    attempt on the day's ranked deal), so a guest's game never waits in the queue."""
    on_ranked_deal = DailyDeal.objects.filter(
        date=OuterRef("race__daily_date"), deal_id=OuterRef("race__deal_id")
    )
    return (
        Entry.objects.filter(review=Entry.FLAGGED, user__isnull=False)
        .filter(Q(daily_date__isnull=True) | Exists(on_ranked_deal))
        .select_related("race", "race__deal", "user", "user__account")
        .order_by("-finished_at", "-id")
    )


def hidden_names():
    """The accounts whose names are hidden now."""
    return (
        Account.objects.filter(name_hidden=True).select_related("user").order_by("user__username")
    )


def hide_name(user, staff, reason, hidden=True):
    """Hide an account's name from the leaderboards (`hidden=False`: show it again),
    logged with who and why."""
    with transaction.atomic():
        NameReview.objects.create(user=user, staff=staff, hidden=hidden, reason=reason)
        Account.objects.update_or_create(
            user=user,
            defaults={"name_hidden": hidden},
            create_defaults={"name_hidden": hidden, "player_key": identity.new_key()},
        )
        name = accounts.shown_name(user, None)
        Entry.objects.filter(user=user).update(name=name)
        EventEntry.objects.filter(user=user).update(name=name)


def hidden_users(user_ids):
    """Which of these accounts' names are hidden (one query)."""
    ids = {pk for pk in user_ids if pk is not None}
    if not ids:
        return set()
    return set(
        Account.objects.filter(user_id__in=ids, name_hidden=True).values_list("user_id", flat=True)
    )


def hidden_label():
    """What a board shows instead of a hidden name, in the reader's language."""
    return gettext("Name hidden")


def mask(lines):
    """Hide the hidden names of board lines, given as (line dict, user id) pairs: the
    line's "name" becomes the label and "name_hidden" says so (no profile link)."""
    lines = list(lines)
    hidden = hidden_users(user_id for _, user_id in lines)
    for line, user_id in lines:
        hide(line, user_id in hidden)


def hide(line, hidden):
    """`mask` for one line whose account's `name_hidden` was read with its row (`hidden`),
    as the records and rating boards read it: no statement of its own."""
    line["name_hidden"] = bool(hidden)
    if hidden:
        line["name"] = hidden_label()
