"""A staff member plans the coming days in the admin's calendar, in Chromium: the
calendar shows every day's deal as the rule book's scheme, a coming day takes the
deal typed for it, an unwinnable deal is refused; screenshots to look at."""

import datetime

import pytest
from playwright.sync_api import expect

from game.engine.examples import RULE_BOOK_DEAL
from game.testing import live
from tests.support.table import screenshot

pytestmark = pytest.mark.e2e

STAFF, PASSWORD = "planner", "calendar-staff-42!"
NO_EVENTS = f"""
from game.models import Event
Event.objects.filter(deals__deal__code={RULE_BOOK_DEAL!r}).delete()
"""
"""An event's deal is never a day's (docs/fair-play.md): the events other browser tests
on this server made on the rule book's deal go before staff schedule it."""


def log_in_as_staff(page, server, username=STAFF):
    env = {**server.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    live.manage(env, "createsuperuser", "--noinput", "--username", username, "--email", "p@e.org")
    page.goto("/admin/login/?next=/admin/game/dailydeal/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()


def row_of(page, date):
    return page.locator(f'.calendar-table tr[data-date="{date.isoformat()}"]')


def test_staff_plan_the_coming_days_in_the_calendar(new_page, server, artifacts):
    # the coming days' automatic picks, and the two deals staff will try
    live.manage(server.env, "analyse_deals", "--daily-candidates", "28", "--workers", "1")
    live.manage(server.env, "analyse_deals", RULE_BOOK_DEAL, server.deals["blocking"])
    live.manage(server.env, "shell", "-c", NO_EVENTS)
    page = new_page(width=1440, height=900)
    log_in_as_staff(page, server)
    today = datetime.datetime.now(datetime.UTC).date()
    expect(page.locator(".calendar-table tbody tr")).to_have_count(36)
    expect(row_of(page, today).locator(".read-only")).to_be_visible()
    expect(row_of(page, today).locator("svg.deal-picture g[data-slot]")).to_have_count(20)

    tomorrow, later = today + datetime.timedelta(days=1), today + datetime.timedelta(days=2)
    row_of(page, tomorrow).get_by_role("link", name="Schedule").click()
    page.get_by_label("Deal code").fill(RULE_BOOK_DEAL)
    page.get_by_role("button", name="Schedule this deal").click()
    expect(row_of(page, tomorrow)).to_contain_text("scheduled by staff · planner")
    expect(row_of(page, tomorrow)).to_contain_text(RULE_BOOK_DEAL)

    page.goto(f"/admin/game/dailydeal/day/{later.isoformat()}/")
    page.get_by_label("Deal code").fill(server.deals["blocking"])
    page.get_by_role("button", name="Schedule this deal").click()
    expect(page.locator(".errornote")).to_contain_text("is not winnable (the solver proved it)")
    screenshot(page, artifacts / "calendar-day-desktop.jpg")

    page.goto("/admin/game/dailydeal/")
    expect(row_of(page, later)).to_contain_text("will be picked automatically")
    screenshot(page, artifacts / "calendar-desktop.jpg")
