"""
Accounts: Django's users, each playing under one player key on every device.

A guest is their session's player key (game/players/identity.py). Signing up turns
that key into the account's (`Account.player_key`), so the guest's games
become the account's history; logging in elsewhere puts the account's key
into that session, so a race or daily attempt is the same entry on every
device. An account's name on every board is its username. Sign-up is limited
per client address (game/base/limits.py), and an account ranks only once it is
some hours old (`may_rank`): accounts are what rank.
"""

import datetime

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from game.base import limits
from game.base.errors import GameError
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


def shown_name(user, name):
    """The name on the boards: an account's username, a guest's chosen name."""
    return user.get_username()[:NAME_MAX] if user else name


class SignUpForm(UserCreationForm):
    """Username and password, no e-mail."""

    class Meta(UserCreationForm.Meta):
        fields = ["username"]


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
    return render(request, "registration/signup.html", {"form": form}, status=_status(form))


def _create(form, key):
    with transaction.atomic():
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
