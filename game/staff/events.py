"""
The admin's events: an event with its deals in order (an inline that refuses a deal
the solver has not proven winnable, a daily deal whose day is not over or one a coming
day may pick, and any change once the event has started; a deal nobody analysed is
analysed there and then, in the background (game/solver/background.py), its page
linked to watch it run), and the recurring schedules whose events
`manage.py daily_upkeep` creates (every day, or the weekdays ticked).
"""

from django import forms
from django.contrib import admin
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy

from game.base.errors import GameError
from game.events import schedule
from game.models import Event, EventDeal, EventEntry, EventSchedule
from game.models.events import EVERY_DAY
from game.solver import background
from game.staff.times import UtcTimes


class EventDealForm(forms.ModelForm):
    class Meta:
        model = EventDeal
        fields = ["index", "deal"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():  # a row's inputs, under the table's headings
            # The admin's wrapper (the deal's links) copies its attrs from the field it
            # was copied from: the input's own widget is the one named.
            widget = getattr(field.widget, "widget", field.widget)
            widget.attrs.setdefault("aria-label", capfirst(field.label))

    def clean_deal(self):
        deal = self.cleaned_data["deal"]
        event = getattr(self.instance, "event", None)
        try:
            schedule.check_deal(deal)
            schedule.check_daily(deal, event.ends_at if event and event.starts_at else None)
        except GameError as exc:
            if exc.code == "unconfirmed":
                raise forms.ValidationError(_analysing(deal), code=exc.code) from None
            raise forms.ValidationError(exc.message, code=exc.code) from None
        return deal


def _analysing(deal):
    """A deal not proven winnable yet: analysed now (unless it already is being), and the
    refusal links its page, which shows the analysis run."""
    if background.state(deal) != background.ANALYSING:
        transaction.on_commit(lambda: background.start(deal))
    text = gettext(
        "%(code)s is not proven winnable yet: it is being analysed now. "
        "Save again once its page says winnable."
    ) % {"code": deal.code}
    url = reverse("admin:game_deal_change", args=[deal.pk])
    return format_html('{} <a href="{}">{}</a>', text, url, gettext("Open its page"))


class EventDealFormSet(forms.BaseInlineFormSet):
    def clean(self):
        super().clean()
        stored = Event.objects.filter(pk=self.instance.pk).first()
        started = stored is not None and stored.starts_at <= timezone.now()
        if started and self.has_changed():
            refusal = GameError("event_started", "the event has started: its deals are fixed")
            raise forms.ValidationError(refusal.message, code=refusal.code)
        if not any(f.cleaned_data and not f.cleaned_data.get("DELETE") for f in self.forms):
            raise forms.ValidationError("an event needs at least one deal")


class EventDealInline(UtcTimes, admin.TabularInline):
    model = EventDeal
    form = EventDealForm
    formset = EventDealFormSet
    autocomplete_fields = ["deal"]
    extra = 3


@admin.register(Event)
class EventAdmin(UtcTimes, admin.ModelAdmin):
    list_display = ["title", "starts_at", "minutes", "rated", "schedule"]
    list_filter = ["rated"]
    inlines = [EventDealInline]
    fields = ["title", "starts_at", "minutes", "rated"]


class WeekdaysField(forms.MultipleChoiceField):
    """`EventSchedule.weekdays` as seven boxes: "5" shows Saturday ticked, and the days
    ticked are stored as their digits in order."""

    def __init__(self, **kwargs):
        choices = [(str(day), name) for day, name in WEEKDAYS.items()]
        super().__init__(choices=choices, widget=forms.CheckboxSelectMultiple, **kwargs)

    def prepare_value(self, value):
        return list(value) if isinstance(value, str) else value

    def clean(self, value):
        return "".join(sorted(super().clean(value)))


class EventScheduleForm(forms.ModelForm):
    weekdays = WeekdaysField(
        label=gettext_lazy("Weekdays"),
        initial=list(EVERY_DAY),
        help_text=gettext_lazy("The days it runs, at its hour (UTC): every day, or some."),
    )

    class Meta:
        model = EventSchedule
        fields = ["title", "at", "weekdays", "minutes", "deals", "rated", "active"]


@admin.register(EventSchedule)
class EventScheduleAdmin(UtcTimes, admin.ModelAdmin):
    form = EventScheduleForm
    list_display = ["title", "when", "minutes", "deals", "rated", "active"]

    @admin.display(description=gettext_lazy("When"))
    def when(self, schedule):
        return schedule.when()


@admin.register(EventEntry)
class EventEntryAdmin(UtcTimes, admin.ModelAdmin):
    list_display = ["name", "event", "points", "wins", "rank"]
    list_select_related = ["event"]
    readonly_fields = ["event", "player_key", "user", "current", "points", "wins", "time_ms"]
