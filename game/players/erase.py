"""
A player deletes their account (/me/delete/): nothing stays that names them or links
their games to them, and nothing others see changes meaning.

Their results stay where they are, under `DELETED_NAME` with no account and a fresh
player key no session holds: a day's board keeps its rows and everyone else keeps
their rank, a race's standings and another player's replay of it still add up, an
event's final standings keep their ranks. What only existed for them goes with the
`User` row, by cascade: the `Account` (its rating leaves the rating board), their
records (they leave the week, month and all-time boards: those boards are about
people), their rating history, follows, blocks, challenges and quick-race seat.
Rank counts follow every deleted record and account (game/models/rank_counts.py's
signal), in the same transaction. The username is free again at once.

The same happens however a `User` is deleted (the admin, a shell: `anonymised`, a
pre_delete receiver connected in game/apps.py). Staff accounts are not deleted from
their page: their moderation decisions are logged under them (`Review`, `NameReview`);
an administrator removes one in the admin.
"""

from django.db import transaction
from django.db.models import Q

from game.models import Account, Entry, EventEntry, QuickSeat, Race, rank_counts
from game.players.identity import DELETED_NAME, new_key


def deletable(user):
    """Whether the player may delete this account themselves: not a staff account."""
    return not (user.is_staff or user.is_superuser)


def delete_account(user):
    """Delete `user` (a `deletable` one): its results anonymised first (`anonymised`)."""
    if not deletable(user):
        raise PermissionError("a staff account is removed by an administrator")
    with transaction.atomic(), rank_counts.collected():
        user.delete()


def anonymised(sender, instance, **kwargs):
    """pre_delete of a `User`, however it is deleted (its page, the admin, a shell): the
    results of the account (and of its key: a guest's games it claimed) under a key nobody
    holds and the neutral name, the races it hosted hosted by that key."""
    account = Account.objects.select_for_update().filter(user=instance).first()
    key = account.player_key if account else None
    nobody = new_key()
    mine = Q(user=instance) | Q(player_key=key) if key else Q(user=instance)
    Entry.objects.filter(mine).update(user=None, player_key=nobody, name=DELETED_NAME)
    EventEntry.objects.filter(mine).update(
        user=None, player_key=nobody, name=DELETED_NAME, address_tag=""
    )
    if key:
        Race.objects.filter(host_key=key).update(host_key=nobody)
        QuickSeat.objects.filter(player_key=key).delete()
