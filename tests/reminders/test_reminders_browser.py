"""
The reminders page as a player meets it (PostgreSQL, as production): at the four sizes
its choices fit and axe finds nothing; loading it asks the browser for nothing; only
the click asks for permission, and a refusal is said plainly, with nothing saved.
"""

import pytest
from playwright.sync_api import expect

from tests.support.axe import blocking_violations
from tests.support.table import screenshot

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1366, 768)]

ASKED = """
window.asked = 0;
if (window.Notification) {
  Notification.requestPermission = async () => { window.asked += 1; return "denied"; };
}
"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_page_fits_every_size_and_asks_only_on_a_click(new_page, artifacts, width, height):
    page = new_page(width=width, height=height, bypass_csp=True)
    page.add_init_script(ASKED)
    page.goto("/me/reminders/")
    expect(page.locator("h1")).to_have_text("Reminders")
    form = page.locator("[data-reminders]")
    expect(form.get_by_label("someone challenges me")).to_be_disabled()  # a guest's
    box = form.bounding_box()
    assert box["height"] > 150 and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("window.asked") == 0
    screenshot(page, artifacts / f"reminders-{width}x{height}.jpg")
    found = blocking_violations(page)
    assert not found, "\n".join(found)
    form.get_by_role("button", name="Turn on reminders on this device").click()
    expect(page.locator("[data-reminders-status]")).to_contain_text("Notifications are blocked")
    assert page.evaluate("window.asked") == 1


def test_an_event_page_offers_its_calendar(page, server):
    from tests.events.test_events_browser import make_event

    event_id = make_event(server, left_s=900)
    page.goto(f"/events/{event_id}/")
    link = page.get_by_role("link", name="Add to my calendar")
    answer = page.request.get(link.get_attribute("href"))
    assert answer.ok and "BEGIN:VEVENT" in answer.text()
