"""
The staff admin: curate deals, plan the daily deals, look into races, moderate.

"Add deal" takes a numbered code (the row it would get on first play) or a custom
deal. Custom deals are entered as text (12 pile lines of 8 cards, bottom to top, and
a line of 8 reserve cards), validated by the engine's `Deal.from_layout`, and
stored under a fresh `HM1-C-` code. Either is then analysed off the request path
(game/solver/background.py) while their page shows the progress. A deal's layout never
changes afterwards: every race on it is replayed from that layout. The daily
deal calendar is game/staff/calendar.py; the flagged results and hidden names,
game/staff/moderation.py.
"""

from collections import Counter

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

from game.daily import schedule
from game.engine import BadCard, BadDealCode, BadLayout, format_code, parse_code
from game.engine import Deal as EngineDeal
from game.models import Deal, Entry, Race, Review
from game.results import move_log, standings
from game.solver import background
from game.solver.verdicts import FIELDS as ANALYSIS_FIELDS
from game.solver.verdicts import analyse_deal_row
from game.staff import deal_picture, moderation
from game.staff.calendar import deal_facts
from game.staff.times import UtcTimes

ANALYSE_AT_ONCE = 25
"""The admin action solves in the request: beyond this, the batch command is the tool."""

DEAL_FACTS = ["code", "source", "picture", "summary", "layout_text", "created_at"]
"""What a deal's page shows and no one edits (with the analysis fields)."""

LAYOUT_HELP = (
    "12 lines, one per pile P1–P12, each 8 cards from bottom to top, e.g. "
    "'5S 10H JC …' (T is accepted for 10). Every card of the two decks exactly twice."
)


class NewDealForm(forms.ModelForm):
    """A new deal: a numbered code, or a custom layout (piles and reserve)."""

    deal_code = forms.CharField(
        label=gettext_lazy("Numbered deal code"),
        required=False,
        max_length=32,
        help_text=gettext_lazy("e.g. HM1-N-AAAAAAB: the deal players get with that code."),
    )
    piles = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "cols": 40}), help_text=LAYOUT_HELP, required=False
    )
    reserve = forms.CharField(
        help_text="the 8 reserve cards R1–R8, e.g. '10H 6S 3D 4S 7D 5S JH AC'", required=False
    )

    class Meta:
        model = Deal
        fields = ["title", "notes"]

    def clean(self):
        cleaned = super().clean()
        code, piles, reserve = ((cleaned.get(key) or "").strip() for key in NEW_DEAL_FIELDS)
        if code and (piles or reserve):
            raise forms.ValidationError(gettext("Give a numbered code or a layout, not both."))
        if code:
            self._numbered(code)
        elif piles and reserve:
            self._custom(piles, reserve)
        else:
            raise forms.ValidationError(
                gettext("Give a numbered code, or a custom layout's piles and reserve.")
            )
        return cleaned

    def _numbered(self, typed):
        try:
            kind, number = parse_code(typed)
        except BadDealCode as exc:
            raise forms.ValidationError({"deal_code": str(exc)}) from None
        if kind != "N":
            refusal = gettext("A custom deal is entered by its layout, below.")
            raise forms.ValidationError({"deal_code": refusal})
        code = format_code(number)
        if Deal.objects.filter(code=code).exists():
            known = gettext("%(code)s is already in the list of deals.") % {"code": code}
            raise forms.ValidationError({"deal_code": known})
        self.instance.code, self.instance.source = code, Deal.NUMBERED

    def _custom(self, piles, reserve):
        lines = [line.replace(",", " ").split() for line in piles.splitlines()]
        try:
            engine_deal = EngineDeal.from_layout(
                [line for line in lines if line], reserve.replace(",", " ").split()
            )
        except (BadLayout, BadCard) as exc:
            raise forms.ValidationError(str(exc)) from None
        self.instance.make_custom(engine_deal)


NEW_DEAL_FIELDS = ["deal_code", "piles", "reserve"]


@admin.register(Deal)
class DealAdmin(UtcTimes, admin.ModelAdmin):
    list_display = [
        "code",
        "source",
        "title",
        "verdict",
        "difficulty",
        "difficulty_label",
        "created_at",
    ]
    list_filter = ["source", "verdict", "difficulty_label"]
    search_fields = ["code", "title"]
    actions = ["analyse_selected"]
    readonly_fields = [*DEAL_FACTS, *ANALYSIS_FIELDS]
    fields = [*DEAL_FACTS[:2], "title", "notes", *DEAL_FACTS[2:], *ANALYSIS_FIELDS]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = NewDealForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        return (
            ["title", "notes", *NEW_DEAL_FIELDS]
            if obj is None
            else super().get_fields(request, obj)
        )

    def get_fieldsets(self, request, obj=None):
        if obj is not None:
            return super().get_fieldsets(request, obj)
        return [
            (gettext_lazy("A numbered deal"), {"fields": ["deal_code"]}),
            (gettext_lazy("Or a custom deal"), {"fields": ["piles", "reserve"]}),
            (None, {"fields": ["title", "notes"]}),
        ]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else super().get_readonly_fields(request, obj)

    @admin.action(description="Analyse selected deals")
    def analyse_selected(self, request, queryset):
        """Solve and rate the deals here and now, one CPU second of search each."""
        if queryset.count() > ANALYSE_AT_ONCE:
            self.message_user(
                request,
                f"Select at most {ANALYSE_AT_ONCE} deals, or run manage.py analyse_deals.",
                messages.WARNING,
            )
            return
        verdicts = Counter(analyse_deal_row(deal).verdict for deal in queryset)
        summary = ", ".join(
            f"{count} {verdict.replace('_', ' ')}" for verdict, count in sorted(verdicts.items())
        )
        self.message_user(request, f"Analysed: {summary}.")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The deal's page reloads itself while its analysis runs (background.py)."""
        deal = self.get_object(request, object_id)
        running = deal is not None and background.state(deal) == background.ANALYSING
        extra_context = {**(extra_context or {}), "analysing": running}
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            transaction.on_commit(lambda: background.start(obj))

    def response_add(self, request, obj, post_url_continue=None):
        """To the new deal's page, where its analysis shows as it runs."""
        super().response_add(request, obj, post_url_continue)
        return redirect("admin:game_deal_change", obj.pk)

    @admin.display(description=gettext_lazy("layout"))
    def picture(self, deal):
        return deal_picture.picture(deal)

    @admin.display(description=gettext_lazy("summary"))
    def summary(self, deal):
        """Its analysis as it stands, and how players fared on it."""
        facts = deal_facts(deal, schedule.results_of([deal])[deal.pk])
        return render_to_string("admin/game/deal_summary.html", facts)

    @admin.display(description=gettext_lazy("cards"))
    def layout_text(self, deal):
        engine_deal = deal.engine_deal()
        lines = [f"P{n}: {' '.join(pile)}" for n, pile in enumerate(engine_deal.piles, start=1)]
        return "\n".join(lines + [f"reserve: {' '.join(engine_deal.reserve)}"])


class EntryInline(UtcTimes, admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ["name", "status", "score", "moves", "cards_left", "seq", "connected", "finished_at"]
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Race)
class RaceAdmin(UtcTimes, admin.ModelAdmin):
    list_display = ["room", "mode", "status", "deal", "created_at", "started_at", "finished_at"]
    list_filter = ["mode", "status"]
    search_fields = ["room", "deal__code"]
    readonly_fields = [f.name for f in Race._meta.fields]
    inlines = [EntryInline]

    def has_add_permission(self, request):
        return False


class ReviewInline(UtcTimes, admin.TabularInline):
    """A staff decision on a flagged result: confirm or disqualify, and why. Decisions
    are a log: added, never changed or deleted."""

    model = Review
    extra = 0
    can_delete = False
    fields = ["decision", "reason", "staff", "at"]
    readonly_fields = ["staff", "at"]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Entry)
class EntryAdmin(UtcTimes, admin.ModelAdmin):
    """Results; filter "review: flagged" for the wins the fair-play checks flagged."""

    list_display = [
        "name",
        "race",
        "status",
        "time_ms",
        "undos",
        "review",
        "ranked",
        "user",
        "joined_at",
    ]
    list_filter = ["review", "ranked", "status", "race__mode"]
    search_fields = ["name", "race__room", "user__username"]
    readonly_fields = [f.name for f in Entry._meta.fields if f.name != "packed_moves"]
    readonly_fields += ["played"]
    inlines = [ReviewInline]

    @admin.display(description="moves and undos (seq, kind, slots, ms since the start)")
    def played(self, entry):
        """The game's stored rows, live or packed once it is over (game/results/move_log.py)."""
        rows = [
            (row.seq, row.kind, "+".join(row.slots), standings.since_start(entry.race, row.at))
            for row in move_log.rows(entry)
        ]
        return format_html_join(mark_safe("<br>"), "{} {} {} {}", rows) or "-"

    def has_add_permission(self, request):
        return False

    def save_formset(self, request, form, formset, change):
        if formset.model is not Review:
            return super().save_formset(request, form, formset, change)
        for review in formset.save(commit=False):
            moderation.decide(form.instance, request.user, review.decision, review.reason)
        return None
