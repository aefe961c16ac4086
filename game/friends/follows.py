"""
Who follows whom, and who blocked whom: the rules.

Following needs no consent (Lichess's way). A block stops the blocked account from
following or challenging the blocker, and ends the follows between the two and any
open challenge between them. Each refusal is a `GameError` of game/base/errors.py.
"""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.db.models.expressions import RawSQL

from game.base.errors import GameError
from game.models import NAME_MAX, Block, Challenge, Follow
from game.players import accounts

MAX_FOLLOWING = 500
"""The most accounts one follows: it bounds every Friends board's query."""
LISTED = 100
"""The followers and the followed shown on a profile, newest first."""


def account_of(username):
    """The account named `username`, or `no_such_player`."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise GameError("no_such_player", f"there is no player {username[:NAME_MAX]!r}")
    return user


def signed_in(user):
    """`user` if it is an account; a guest has no friends to keep (`account_needed`)."""
    if user is None or not user.is_authenticated:
        raise GameError("account_needed", "sign in to follow, block or challenge a player")
    return user


def not_yourself(user, other):
    if user.pk == other.pk:
        raise GameError("self_follow", "you cannot follow, block or challenge yourself")


def blocked_between(user, other):
    """Whether either of the two accounts blocked the other."""
    either = Q(blocker=user, blocked=other) | Q(blocker=other, blocked=user)
    return Block.objects.filter(either).exists()


def refuse_if_blocked(user, other):
    if blocked_between(user, other):
        raise GameError(
            "blocked", f"{other.get_username()} and you cannot follow or challenge each other"
        )


def follow(user, other):
    """`user` follows `other` (again: nothing changes)."""
    not_yourself(user, other)
    refuse_if_blocked(user, other)
    with transaction.atomic():
        if Follow.objects.filter(follower=user, followed=other).exists():
            return
        if Follow.objects.filter(follower=user).count() >= MAX_FOLLOWING:
            raise GameError("too_many_follows", f"you follow {MAX_FOLLOWING} players already")
        Follow.objects.get_or_create(follower=user, followed=other)


def unfollow(user, other):
    Follow.objects.filter(follower=user, followed=other).delete()


def block(user, other):
    """`user` blocks `other`: the follows between them end, and their open challenges."""
    not_yourself(user, other)
    pair = Q(follower=user, followed=other) | Q(follower=other, followed=user)
    sent = Q(challenger=user, challenged=other) | Q(challenger=other, challenged=user)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(pair).delete()
        Challenge.objects.filter(sent, status=Challenge.OPEN).update(status=Challenge.CANCELLED)


def unblock(user, other):
    Block.objects.filter(blocker=user, blocked=other).delete()


def follows(user, other):
    return Follow.objects.filter(follower=user, followed=other).exists()


_CIRCLE = "SELECT followed_id FROM game_follow WHERE follower_id = %s UNION ALL SELECT %s"


def circle(user):
    """The ids of the accounts `user` follows, and `user`'s own: a Friends board's rows,
    as a subquery for `user_id__in`. PostgreSQL then probes each account's row (5 ms at
    500 follows), where a list of 501 ids made it walk the whole board's index (18 ms).
    Written once in SQL: the ORM built and compiled its union on every Friends view."""
    return RawSQL(_CIRCLE, [user.pk, user.pk])


def as_sql(among):
    """A Friends view's accounts as SQL and parameters, for a board's statement written
    once: `circle`'s subquery, or the ids (a guest's: none)."""
    if isinstance(among, RawSQL):
        return among.sql, list(among.params)
    ids = list(among)
    return ", ".join(["%s"] * len(ids)) or "NULL", ids


def lists(account):
    """The names `account` follows and the names following it, newest first, and how
    many of each."""
    following, following_count = _listed(Follow.objects.filter(follower=account), "followed")
    followers, followers_count = _listed(Follow.objects.filter(followed=account), "follower")
    return {
        "following": following,
        "followers": followers,
        "following_count": following_count,
        "followers_count": followers_count,
    }


def _listed(follows, side):
    """The first `LISTED` names of `side` in `follows`, newest first, and how many there
    are: counted only when the list is full (otherwise it holds them all)."""
    rows = follows.order_by("-at", "-id").values_list(
        f"{side}__username", f"{side}__account__name_hidden"
    )
    names = [accounts.HIDDEN_NAME if hidden else name for name, hidden in rows[:LISTED]]
    return names, len(names) if len(names) < LISTED else follows.count()


def relation(viewer, account):
    """What a profile's buttons show `viewer` about `account` (None for oneself or a guest)."""
    if viewer is None or not viewer.is_authenticated or viewer.pk == account.pk:
        return None
    between = Q(follower=viewer, followed=account) | Q(follower=account, followed=viewer)
    following = set(Follow.objects.filter(between).values_list("follower_id", flat=True))
    between = Q(blocker=viewer, blocked=account) | Q(blocker=account, blocked=viewer)
    blocking = set(Block.objects.filter(between).values_list("blocker_id", flat=True))
    return {  # two statements, each both ways, where four asked one way each
        "following": viewer.pk in following,
        "followed_by": account.pk in following,
        "blocking": viewer.pk in blocking,
        "blocked": account.pk in blocking,
    }
