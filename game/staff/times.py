"""
Every time in the admin says it is UTC: the server keeps and shows times in UTC
(TIME_ZONE), and staff planning an event at "20:00" from Bucharest must not have to
guess. `UtcTimes` goes first in every staff ModelAdmin and inline: an editable date-time
or time field's label ends in "(UTC)", and a read-only one (a list column, a field on a
page) is shown through a stand-in whose heading says "(UTC)", sorted by the field.
"""

from django.contrib import admin
from django.contrib.admin.utils import display_for_field
from django.db import models
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext_lazy

TIMES = (models.DateTimeField, models.TimeField)


def in_utc(label):
    return format_lazy("{} (UTC)", label)


def _shown(field):
    @admin.display(description=in_utc(capfirst(field.verbose_name)), ordering=field.name)
    def shown(obj):
        return display_for_field(getattr(obj, field.name), field, "—")

    return shown


def _name_parts(formfield):
    """A date and a time typed apart (the admin's split widget) each named for a screen
    reader: the field's one label stands for neither input."""
    parts = getattr(formfield.widget, "widgets", ())
    for part, word in zip(parts, (gettext_lazy("date"), gettext_lazy("time")), strict=False):
        part.attrs["aria-label"] = format_lazy("{} · {}", formfield.label, word)


class UtcTimes:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        times = [f for f in self.model._meta.fields if isinstance(f, TIMES)]
        self._in_utc = {field.name: f"{field.name}_in_utc" for field in times}
        for field in times:
            setattr(self, self._in_utc[field.name], _shown(field))

    def _stand_ins(self, names, only=None):
        """`names` with each time field's stand-in (of those in `only`, if given)."""
        return [
            self._in_utc[n]
            if n in self._in_utc and (only is None or self._in_utc[n] in only)
            else n
            for n in names
        ]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if isinstance(db_field, TIMES) and formfield is not None:
            formfield.label = in_utc(formfield.label)
            _name_parts(formfield)
        return formfield

    def get_readonly_fields(self, request, obj=None):
        return self._stand_ins(super().get_readonly_fields(request, obj))

    def get_fields(self, request, obj=None):
        readonly = set(self.get_readonly_fields(request, obj))
        return self._stand_ins(super().get_fields(request, obj), only=readonly)

    def get_list_display(self, request):
        return self._stand_ins(super().get_list_display(request))
