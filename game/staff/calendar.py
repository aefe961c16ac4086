"""
The staff's deal calendar in the admin (/admin/game/dailydeal/): the past week,
today and the coming four weeks, each day with its deal's picture, verdict,
difficulty and results, and a page per day to schedule a deal or give the day
back to the automatic pick.

Only translation happens here: every rule (a day that started is history, an
unwinnable deal is refused, an unknown verdict needs confirmation) is decided
in game/daily/schedule.py and arrives as a `GameError`, shown as the form's error.
Staff only, like the rest of the admin (`admin_view`); changing a day also needs
the change permission on daily deals.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import formats
from django.utils.translation import gettext, gettext_lazy

from game.base import days
from game.base.errors import GameError
from game.base.inputs import date_or_404
from game.daily import schedule
from game.models import DailyDeal
from game.solver import background
from game.staff import deal_picture, fill
from game.staff.times import UtcTimes
from game.web import pages

KIND_LABELS = {
    schedule.SCHEDULED: gettext_lazy("scheduled by staff"),
    schedule.PICKED: gettext_lazy("picked automatically"),
    schedule.PREDICTED: gettext_lazy("will be picked automatically"),
    schedule.PENDING: gettext_lazy("picked automatically at midnight"),
}


class ScheduleForm(forms.Form):
    deal_code = forms.CharField(
        label=gettext_lazy("Deal code"),
        max_length=32,
        help_text=gettext_lazy("A numbered code (HM1-N-…) or a custom deal already entered."),
    )
    confirm = forms.BooleanField(
        label=gettext_lazy("Schedule it although nobody knows whether it can be won"),
        required=False,
    )


VERDICT_LABELS = {
    "winnable": gettext_lazy("winnable"),
    "not_winnable": gettext_lazy("not winnable"),
    "unknown": gettext_lazy("unknown: the solver could not decide"),
}
ANALYSIS_LABELS = {
    background.ANALYSING: gettext_lazy("analysing…"),
    background.INTERRUPTED: gettext_lazy("analysis interrupted: analyse it again"),
    background.NOT_ANALYSED: gettext_lazy("not analysed yet"),
}
DIFFICULTY_LABELS = {
    "easy": gettext_lazy("easy"),
    "medium": gettext_lazy("medium"),
    "hard": gettext_lazy("hard"),
    "very hard": gettext_lazy("very hard"),
}


def deal_facts(deal, results):
    """What the staff's pages show of a deal: its picture, analysis and results."""
    state = background.state(deal)
    verdict = VERDICT_LABELS.get(deal.verdict) if state == background.ANALYSED else None
    return {
        "deal": deal,
        "picture": deal_picture.picture(deal),
        "analysing": state == background.ANALYSING,
        "analysis": verdict or ANALYSIS_LABELS[state],
        "difficulty": DIFFICULTY_LABELS.get(deal.difficulty_label, deal.difficulty_label),
        "results": results,
    }


@admin.register(DailyDeal)
class DailyDealAdmin(UtcTimes, admin.ModelAdmin):
    """The calendar is this model's list; a day's page is where its deal changes. The
    admin's own add, change and delete pages lead there, so every change passes
    game/daily/schedule.py's rules."""

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("day/<str:date>/", view(self.day_view), name="game_dailydeal_day"),
            path("fill/", view(self.fill_view), name="game_dailydeal_fill"),
            *super().get_urls(),
        ]

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Daily deal calendar"),
            "opts": self.model._meta,
            "days": [_day_facts(day) for day in schedule.calendar_days()],
            "today": days.today(),
            "fill": _fill_facts(fill.status()),
            "may_change": self.has_change_permission(request),
        }
        return TemplateResponse(request, "admin/game/calendar.html", context)

    def fill_view(self, request):
        """POST: start filling the coming four weeks (change permission); GET: its
        progress, which the calendar polls while it runs."""
        if request.method == "POST":
            if not self.has_change_permission(request):
                raise PermissionDenied
            if fill.start() is None:
                self.message_user(request, gettext("The coming weeks are being filled already."))
            return redirect("admin:game_dailydeal_changelist")
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        return JsonResponse(_fill_facts(fill.status()))

    def add_view(self, request, form_url="", extra_context=None):
        return redirect("admin:game_dailydeal_changelist")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        day = self.get_object(request, object_id)
        if day is None:
            return redirect("admin:game_dailydeal_changelist")
        return redirect("admin:game_dailydeal_day", day.date.isoformat())

    def day_view(self, request, date):
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        date = date_or_404(date)
        form = ScheduleForm(request.POST or None)
        asked = False
        if request.method == "POST":
            if not self.has_change_permission(request):
                raise PermissionDenied
            try:
                if "unschedule" in request.POST:
                    schedule.unschedule(date)
                    self.message_user(request, _done(date, gettext("back to the automatic pick")))
                    return redirect("admin:game_dailydeal_changelist")
                if form.is_valid():
                    data = form.cleaned_data
                    day = schedule.schedule(date, data["deal_code"], request.user, data["confirm"])
                    self.message_user(request, _done(date, day.deal.code), messages.SUCCESS)
                    return redirect("admin:game_dailydeal_changelist")
            except GameError as exc:
                form.add_error(None, _message(exc, request.POST.get("deal_code", "")))
                asked = exc.code == "unconfirmed"
        context = {
            **self.admin_site.each_context(request),
            "title": f"{formats.date_format(date, 'l')} {formats.date_format(date, 'DATE_FORMAT')}",
            "opts": self.model._meta,
            **_day_context(date),
            "form": form,
            "asked_to_confirm": asked,
        }
        status = 400 if form.errors else 200
        return TemplateResponse(request, "admin/game/calendar_day.html", context, status=status)


def _done(date, what):
    shown = formats.date_format(date, "DATE_FORMAT")
    return gettext("%(date)s: %(what)s.") % {"date": shown, "what": what}


def _message(exc, typed):
    """A refusal in the reader's language (deal codes share the lobby's texts)."""
    if exc.code in pages.DEAL_ERRORS:
        return pages.DEAL_ERRORS[exc.code] % {"code": typed.strip()[:32]}
    return exc.message


FILL_TEXTS = {
    fill.IDLE: gettext_lazy("The coming days' picks are analysed at midnight, or now:"),
    fill.RUNNING: gettext_lazy("Analysing the coming days' candidates…"),
    fill.DONE: gettext_lazy("The coming four weeks are filled."),
    fill.FAILED: gettext_lazy("Filling the coming weeks failed: try again."),
    fill.INTERRUPTED: gettext_lazy("Filling the coming weeks was interrupted: try again."),
}


def _fill_facts(status):
    """The fill's progress in words and figures, for the page and its status endpoint."""
    shown = {key: status[key] for key in ("state", "settled", "total", "analysed")}
    known = gettext("%(settled)d of %(total)d picks known · %(analysed)d deals analysed")
    text = str(FILL_TEXTS[status["state"]])
    if status["total"]:
        text = f"{text} {known % shown}"
    return {**shown, "running": status["state"] == fill.RUNNING, "text": text}


def _day_facts(day):
    facts = deal_facts(day.deal, day.results) if day.deal else {}
    return {"day": day, "kind": KIND_LABELS[day.kind], **facts}


def _day_context(date):
    return {**_day_facts(schedule.calendar_days(date, date)[0]), "today": days.today()}
