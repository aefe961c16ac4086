"""
A player's own data: download it (/me/export/, JSON) and delete the account
(/me/delete/, a page asking for the password). Views only translate: what the
download holds is game/players/export.py's, what a deletion does
game/players/erase.py's. The download is rate-limited like the read API
(game/base/limits.py, "read"); the deletion is a POST behind Django's CSRF check and
the account's password, and ends the session.
"""

from django import forms
from django.contrib.auth import logout
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from game.base import limits
from game.base.errors import GameError
from game.deals import secrecy
from game.players import erase, export, identity
from game.web.api import api


@require_safe
@api
def export_data(request, body):
    """Everything of the signed-in account's, as an attachment."""
    if not request.user.is_authenticated:
        raise GameError("account_needed", "sign in to download your data")
    limits.spend(request, "read", identity.viewer_key(request.session))
    user = request.user
    response = JsonResponse(export.data(user, secrecy.shown_code), json_dumps_params={"indent": 1})
    name = f"halfmoon-{user.get_username()}.json"  # a username's characters: [\w.@+-]
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class DeleteForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(gettext("That is not your password."))
        return password


@require_http_methods(["GET", "HEAD", "POST"])
def delete_account(request):
    """GET: what a deletion does, and the password field; POST: delete, log out."""
    if not request.user.is_authenticated:
        return redirect("game:login")
    user = request.user
    if not erase.deletable(user):
        return _page(request, None, status=403)
    form = DeleteForm(user, request.POST if request.method == "POST" else None)
    if request.method != "POST" or not form.is_valid():
        return _page(request, form, status=400 if form.is_bound else 200)
    erase.delete_account(user)
    logout(request)
    return render(request, "registration/account_deleted.html")


def _page(request, form, status):
    return render(request, "registration/delete_account.html", {"form": form}, status=status)
