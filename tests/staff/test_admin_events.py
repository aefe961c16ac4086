"""
Staff plan an event in the admin without a shell: a deal nobody analysed is analysed
from the event's form, in the background, and the form says so and links its progress.
"""

import pytest
from django.utils import timezone

from game.models import Deal, Event
from game.solver import background
from tests.support.server import event_admin_form

pytestmark = pytest.mark.django_db
CODE = "HM1-N-AAAAAAJ"


def test_a_deal_not_analysed_is_analysed_from_the_event_form(
    admin_client, monkeypatch, django_capture_on_commit_callbacks
):
    started = []
    monkeypatch.setattr(background, "start", started.append)
    deal = Deal.for_code(CODE)
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client.post("/admin/game/event/add/", event_admin_form(deal))
    html = answer.content.decode()
    assert answer.status_code == 200 and not Event.objects.exists()
    assert "being analysed now" in html and f'href="/admin/game/deal/{deal.pk}/change/"' in html
    assert started == [deal]
    Deal.objects.filter(pk=deal.pk).update(analysing_since=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        again = admin_client.post("/admin/game/event/add/", event_admin_form(deal))
    assert "being analysed now" in again.content.decode() and started == [deal]  # not twice
    Deal.objects.filter(pk=deal.pk).update(verdict="winnable", analyzed_at=timezone.now())
    assert admin_client.post("/admin/game/event/add/", event_admin_form(deal)).status_code == 302
    assert Event.objects.get().deals.get().deal == deal
