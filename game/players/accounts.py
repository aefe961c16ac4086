"""
Accounts: Django's users, each playing under one player key on every device.

A guest is their session's player key (game/players/identity.py). Signing up turns
that key into the account's (`Account.player_key`), so the guest's games
become the account's history; logging in elsewhere puts the account's key
into that session, so a race or daily attempt is the same entry on every
device. An account's name on every board is its username — or, once staff hid it,
`HIDDEN_NAME` (`shown_name`, the one place a game's or an event's name is set; game/
players/moderation.py renames the stored ones). Sign-up is limited
per client address (game/base/limits.py), and an account ranks only once it is
some hours old (`may_rank`): accounts are what rank. A username is one identity
in every spelling (game/base/inputs.py `login_name`): sign-up refuses a name that
differs from a taken one only in case, width or the whitespace around it.
"""

import datetime
import hashlib

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from game.base import limits
from game.base.errors import GameError
from game.base.inputs import login_name
from game.models import NAME_MAX, Account, Entry
from game.players import identity, trust


def user_for(player_key):
    """The account playing under this key, or None for a guest."""
    account = Account.objects.select_related("user").filter(player_key=player_key).first()
    return account.user if account else None


def may_rank(user):
    """Whether an account's daily attempt may rank: the account is at least
    HALFMOON_RANKED_MIN_AGE_H hours old. A younger one plays the guests' deal, unranked:
    five new accounts an hour from one address no longer fill a day's top ranks."""
    return timezone.now() - user.date_joined >= min_age()


def min_age():
    return datetime.timedelta(hours=settings.HALFMOON_RANKED_MIN_AGE_H)


HIDDEN_NAME = "Name hidden"
"""An account's name in its games and event entries while staff hide it: pages read it in
their own language (the `player_name` filter), as the boards' "Name hidden"."""


def shown_name(user, name):
    """The name a game or an event entry stores and every page, replay, frame and API
    answer reads: an account's username (`HIDDEN_NAME` while staff hide it), a guest's
    chosen name."""
    if user is None:
        return name
    if Account.objects.filter(user=user, name_hidden=True).exists():
        return HIDDEN_NAME
    return user.get_username()[:NAME_MAX]


def listed_name(user):
    """An account's name where a list names it (a challenge): its username, or
    `HIDDEN_NAME` while staff hide it (its account read with it, or read now)."""
    account = getattr(user, "account", None)
    return HIDDEN_NAME if account is not None and account.name_hidden else user.get_username()


class SignUpForm(UserCreationForm):
    """Username and password, no e-mail."""

    class Meta(UserCreationForm.Meta):
        fields = ["username"]

    def clean_username(self):
        """Django's form made the name NFKC and trimmed it; refused here when it is a
        taken name in any spelling (in place of Django's check, which is case only)."""
        username = self.cleaned_data.get("username")
        if username and name_taken(username):
            raise ValidationError(
                gettext("This name is taken, or differs from a taken one only in case or width."),
                code="name_taken",
            )
        return username


def name_taken(username):
    """Whether an account's name is `username` in some spelling (`login_name`)."""
    return bool(_spellings(username))


def _spellings(username):
    """The accounts' names that are `username` in some spelling: the database finds the
    candidates without regard to case, Python compares their folded forms."""
    key = login_name(username)
    near = User.objects.filter(Q(username__iexact=username) | Q(username__iexact=key))
    return [name for name in near.values_list("username", flat=True) if login_name(name) == key]


class AnySpelling(ModelBackend):
    """Log-in by a username in any spelling: "VICTIM" or "ｖｉｃｔｉｍ" is victim's, as the
    throttle counts it. A name two older accounts share in two spellings (made before
    sign-up refused that) logs in only as written."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is not None:
            same = _spellings(username)
            username = same[0] if len(same) == 1 else username
        return super().authenticate(request, username=username, password=password, **kwargs)


def _hold_name(username):
    """Two sign-ups of one name in two spellings at once wait for each other until the
    first commits (PostgreSQL: a lock for the transaction on the name), so the second
    finds the first's account and is refused."""
    if connection.vendor == "postgresql":
        digest = hashlib.sha256(login_name(username).encode()).digest()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
            )


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    """Sign up; someone logged in already has an account (their profile), and a key an
    account took meanwhile (the same form sent twice at once) is that account's: log in."""
    if request.user.is_authenticated:
        return redirect("game:me")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        try:
            limits.spend(request, "signup")
        except GameError:
            form.add_error(None, gettext("Too many sign-ups from your address. Try again later."))
        else:
            if form.is_valid():
                try:
                    user = _create(form, identity.player_key(request.session))
                except IntegrityError:  # the username or the key was taken meanwhile
                    form = SignUpForm(request.POST)
                    if form.is_valid():
                        return redirect("game:login")
                else:
                    trust.remember_signup(user, request)
                    login(request, user)
                    return redirect("game:me")
    context = {"form": form, "rank_hours": f"{settings.HALFMOON_RANKED_MIN_AGE_H:g}"}
    return render(request, "registration/signup.html", context, status=_status(form))


def _create(form, key):
    with transaction.atomic():
        _hold_name(form.cleaned_data["username"])
        if name_taken(form.cleaned_data["username"]):
            raise IntegrityError("the name was taken meanwhile, in another spelling")
        user = form.save()
        claim(user, key)
    return user


def _status(form):
    return 400 if form.is_bound and form.errors else 200


def claim(user, player_key):
    """The guest's key becomes the account's, and every game they played under it theirs."""
    Account.objects.create(user=user, player_key=player_key)
    Entry.objects.filter(player_key=player_key, user__isnull=True).update(user=user)


def play_as_account(sender, request, user, **kwargs):
    """After logging in, this session plays under the account's key (created for an
    account made without a guest session, e.g. by `createsuperuser`). Connected to
    `user_logged_in` by game/apps.py."""
    account = Account.objects.filter(user=user).first()
    if account is None:
        account = Account.objects.create(user=user, player_key=identity.new_key())
    request.session[identity.PLAYER_KEY] = account.player_key
    trust.remember_login(account, request)
