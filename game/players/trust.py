"""
What the rating rules need to know of accounts to keep a rating from being farmed
(game/results/rated.py, game/lobby/quick.py, docs/ratings.md): which accounts are new
or share an address, and which blocked one another.

Of an address an account keeps only a keyed hash (game/base/clients.py
`address_hash`), of the one it signed up from and the one it last logged in from:
enough to tell that two accounts came from one address, never which address it was
(docs/fair-play.md, "Privacy").
"""

from datetime import timedelta

from django.conf import settings
from django.db.models import Q

from game.base import clients
from game.models import Account, Block


def remember_signup(user, request):
    """The account `user` just signed up from this request's address."""
    address = clients.address_hash(request)
    Account.objects.filter(user=user).update(signup_address=address, last_address=address)


def remember_login(account, request):
    """The account logged in from this request's address (saved when it changed)."""
    address = clients.address_hash(request)
    if account.last_address != address:
        account.last_address = address
        account.save(update_fields=["last_address"])


def addresses(account):
    return {a for a in (account.signup_address, account.last_address) if a}


def suspect(account, other, now):
    """Whether `account`'s gains against `other` count against its day's cap: `other`
    was created less than HALFMOON_RATED_NEW_DAYS ago, or the two accounts share a
    sign-up or last address."""
    recent = now - other.user.date_joined < timedelta(days=settings.HALFMOON_RATED_NEW_DAYS)
    return recent or bool(addresses(account) & addresses(other))


def kept_apart(player_keys):
    """{frozenset({key, key})} of the player keys among `player_keys` whose accounts
    have a block between them (whoever made it): never seated in one rated race."""
    users = dict(
        Account.objects.filter(player_key__in=player_keys).values_list("user_id", "player_key")
    )
    found = Block.objects.filter(blocker_id__in=users, blocked_id__in=users)
    pairs = found.values_list("blocker_id", "blocked_id")
    return {frozenset((users[blocker], users[blocked])) for blocker, blocked in pairs}


def blocked_with(user, others):
    """Whether `user` blocked any of the accounts `others` (user ids), or one of them
    blocked it."""
    either = Q(blocker=user, blocked_id__in=others) | Q(blocker_id__in=others, blocked=user)
    return Block.objects.filter(either).exists()
