"""
Moderation pages in the admin, beside the moderation log (/admin/game/review/):

- flagged/: the results the fair-play checks flagged (game/results/fairplay.py), each with
  what made it suspect, links to its moves and replay, and one form to confirm
  it, disqualify it or hide its player's name — always with a reason;
- names/: the names hidden from the leaderboards, to show one again or hide
  another by username, and the log of those decisions.

Decisions are made in game/results/fairplay.py (results) and game/players/moderation.py (names),
both logged with who and why; this module only translates forms into them.
"""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext, gettext_lazy

from game.events import shared_standings, standings
from game.models import Entry, NameReview, Review
from game.players import moderation
from game.replays import watch
from game.results import fairplay, verify
from game.staff.times import UtcTimes

SHOWN = 100
"""Flagged results per page: the newest; what is decided leaves the list."""

REASONS = {
    "too_quick": gettext_lazy("the whole win was quicker than a person can play"),
    "fast_moves": gettext_lazy("the moves came faster than a person's"),
    "steady": gettext_lazy("the gaps between moves hardly varied, like a paced script's"),
    "no_look": gettext_lazy("the first move came at once and the player never stopped to think"),
    "solver_line": gettext_lazy("most of the line played is the solver's own"),
    "peeks": gettext_lazy("many moves taken back at once, as if to look under cards"),
    "held_replay": gettext_lazy("the server's replay of its moves does not give this result"),
    "held_pace": gettext_lazy("far faster than the player's recent wins: held until verified"),
}
"""The fair-play checks' reasons (game/results/fairplay.py, docs/fair-play.md) and a verified
#1's holds (game/results/verify.py) in words."""


def _reasons(entry, tempo):
    return [*fairplay.reasons(tempo), *verify.held_reasons(entry)]


CONFIRM, DISQUALIFY, HIDE_NAME, SHOW_NAME = "confirm", "disqualify", "hide_name", "show_name"


class ActionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(CONFIRM, CONFIRM), (DISQUALIFY, DISQUALIFY), (HIDE_NAME, HIDE_NAME)]
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, strip=True)


class NameForm(forms.Form):
    action = forms.ChoiceField(choices=[(HIDE_NAME, HIDE_NAME), (SHOW_NAME, SHOW_NAME)])
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, strip=True)

    def clean_username(self):
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError(gettext("There is no account with that username."))
        return user


@admin.register(Review)
class ReviewAdmin(UtcTimes, admin.ModelAdmin):
    """The moderation log: who decided what about which result, and why. Decisions are
    added from the flagged list or a result's page, never changed or deleted (no delete
    permission, so no delete action either)."""

    list_display = ["at", "entry", "decision", "staff", "reason"]
    list_filter = ["decision"]
    readonly_fields = ["entry", "staff", "decision", "reason", "at"]
    change_list_template = "admin/game/review/change_list.html"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("flagged/", view(self.flagged_view), name="game_review_flagged"),
            path("names/", view(self.names_view), name="game_review_names"),
            *super().get_urls(),
        ]

    def _allowed(self, request):
        """Staff who may change results (and so add to the log)."""
        if not request.user.has_perm("game.change_entry"):
            raise PermissionDenied

    def _render(self, request, template, title, **context):
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.model._meta,
            **context,
        }
        status = 400 if any(form.errors for form in context.get("forms", [])) else 200
        return TemplateResponse(request, template, context, status=status)

    def flagged_view(self, request):
        self._allowed(request)
        failed = None
        if request.method == "POST":
            entry = get_object_or_404(
                Entry.objects.select_related("user"), pk=request.POST.get("entry")
            )
            form = ActionForm(request.POST)
            if form.is_valid():
                try:
                    _act(request.user, entry, **form.cleaned_data)
                except forms.ValidationError as exc:
                    form.add_error(None, exc)
                else:
                    self.message_user(request, _done(entry, form.cleaned_data["action"]))
                    return redirect("admin:game_review_flagged")
            failed = (entry.pk, form)
        rows = []
        for entry in moderation.flagged()[:SHOWN]:
            form = failed[1] if failed and failed[0] == entry.pk else ActionForm()
            public = watch.visible(entry.race, entry, None)
            tempo = fairplay.tempo_of(entry)
            rows.append(
                {
                    "entry": entry,
                    "gap_s": fairplay.median_gap_s(tempo),
                    "why": [REASONS.get(code, code) for code in _reasons(entry, tempo)],
                    "replay": watch.url(entry) if public else None,
                    "form": form,
                }
            )
        title = gettext("Flagged results")
        forms_shown = [row["form"] for row in rows]
        return self._render(request, "admin/game/flagged.html", title, rows=rows, forms=forms_shown)

    def names_view(self, request):
        self._allowed(request)
        form = NameForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            hidden = data["action"] == HIDE_NAME
            moderation.hide_name(data["username"], request.user, data["reason"], hidden=hidden)
            shared_standings.forget()  # this process's event pages at once, the others' in 1 s
            self.message_user(request, _name_done(data["username"], hidden))
            return redirect("admin:game_review_names")
        return self._render(
            request,
            "admin/game/names.html",
            gettext("Hidden names"),
            form=form,
            forms=[form],
            hidden=moderation.hidden_names(),
            log=NameReview.objects.select_related("user", "staff")[:SHOWN],
        )


def _act(staff, entry, action, reason):
    """Apply one decision on a flagged result (ValidationError when it cannot apply); the
    event pages of this process show it at once, the others' within a second."""
    if action == HIDE_NAME:
        if entry.user is None:
            raise forms.ValidationError(gettext("A guest's name is on no ranked board."))
        moderation.hide_name(entry.user, staff, reason)
    else:
        decide(entry, staff, Entry.CONFIRMED if action == CONFIRM else Entry.DISQUALIFIED, reason)
    shared_standings.forget()


def decide(entry, staff, decision, reason):
    """A staff decision on a result (game/results/fairplay.py); an event game's also stores
    its event's final ranks again (a confirmed result leaves the held list)."""
    fairplay.decide(entry, staff, decision, reason)
    standings.decided(entry.race)


def _done(entry, action):
    texts = {
        CONFIRM: gettext("%(name)s's result is confirmed: it counts again."),
        DISQUALIFY: gettext("%(name)s's result is disqualified: it left every board."),
        HIDE_NAME: gettext("%(name)s's name is hidden from the leaderboards."),
    }
    return texts[action] % {"name": entry.name}


def _name_done(user, hidden):
    text = (
        gettext("%(name)s's name is hidden from the leaderboards.")
        if hidden
        else gettext("%(name)s's name is shown on the leaderboards again.")
    )
    return text % {"name": user.get_username()}


@admin.register(NameReview)
class NameReviewAdmin(UtcTimes, admin.ModelAdmin):
    """The log of names hidden and shown again: read only."""

    list_display = ["at", "user", "hidden", "staff", "reason"]
    list_filter = ["hidden"]
    readonly_fields = ["user", "staff", "hidden", "reason", "at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
