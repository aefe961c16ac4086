"""Texts a player meets outside the table, in their language: the error pages of the
production server (DEBUG off), the daily deal's one Romanian name, the next deal's
time written as the page's language writes a time."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

NOT_FOUND = {
    "fr-FR": ("Cette page n’est pas sur la table", "La course ZZZZZZ n’existe pas."),
    "ca-ES": ("Aquesta pàgina no és sobre la taula", "La cursa ZZZZZZ no existeix."),
    "ro-RO": ("Această pagină nu este pe masă", "Cursa ZZZZZZ nu există."),
}


@pytest.mark.parametrize("locale", sorted(NOT_FOUND))
def test_the_404_pages_speak_the_browsers_language(new_page, locale):
    heading, reason = NOT_FOUND[locale]
    page = new_page(locale=locale)
    for path, detail in (("/no/such/page/", None), ("/race/ZZZZZZ/", reason)):
        answer = page.goto(path)
        assert answer.status == 404
        expect(page.locator("html")).to_have_attribute("lang", locale[:2])
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        if detail:
            expect(page.locator(".error-detail")).to_have_text(detail)
        assert "Not found" not in page.title() and "Back to the lobby" not in page.content()


def test_the_romanian_lobby_calls_the_daily_deal_by_one_name(new_page):
    page = new_page(locale="ro-RO")
    page.goto("/")
    daily = page.locator("section.daily")
    expect(daily.get_by_role("heading")).to_have_text("Distribuția zilei")
    text = daily.inner_text()
    assert text.count("Distribuția zilei") >= 2 and "Jocul zilei" not in text, text


@pytest.mark.parametrize(
    ("locale", "time"),
    [("en-US", r"\d{2}:\d{2}\s?[AP]M"), ("fr-FR", r"\d{2}:\d{2}"), ("ro-RO", r"\d{2}:\d{2}")],
)
def test_the_next_deals_time_is_written_as_the_pages_language_writes_it(new_page, locale, time):
    page = new_page(locale=locale)
    page.goto("/daily/")
    expect(page.locator("#next-deal")).to_have_text(re.compile(rf"\({time}\)$"))
