"""
The sign-up page (/accounts/signup/): the form, the sign-ups per address
(game/base/limits.py), and logging the new account in. What an account is, and how a
guest's games become its own, is game/players/accounts.py's.
"""

from django.conf import settings
from django.contrib.auth import login
from django.db import IntegrityError
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from game.base import limits
from game.base.errors import GameError
from game.players import accounts, identity, trust


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    """Sign up; someone logged in already has an account (their profile), and a key an
    account took meanwhile (the same form sent twice at once) is that account's: log in."""
    if request.user.is_authenticated:
        return redirect("game:me")
    form = accounts.SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        try:
            limits.spend(request, "signup")
        except GameError:
            form.add_error(None, gettext("Too many sign-ups from your address. Try again later."))
        else:
            if form.is_valid():
                try:
                    user = accounts.create(form, identity.player_key(request.session))
                except IntegrityError:  # the username or the key was taken meanwhile
                    form = accounts.SignUpForm(request.POST)
                    if form.is_valid():
                        return redirect("game:login")
                else:
                    trust.remember_signup(user, request)
                    login(request, user)
                    return redirect("game:me")
    context = {"form": form, "rank_hours": f"{settings.HALFMOON_RANKED_MIN_AGE_H:g}"}
    return render(request, "registration/signup.html", context, status=_status(form))


def _status(form):
    return 400 if form.is_bound and form.errors else 200
