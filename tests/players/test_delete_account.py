"""A player downloads their data from their profile, then deletes their account from
it: a wrong password is refused on the page, the right one logs them out, and the
name is free for a new account."""

import json

import pytest
from playwright.sync_api import expect

from tests.daily.test_ranked_daily import PASSWORD, sign_up

pytestmark = pytest.mark.e2e

NAME = "leaving-soon"


def test_a_player_downloads_their_data_then_deletes_their_account(new_page):
    page = new_page()
    sign_up(page, NAME)
    page.goto("/me/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download my data").click()
    data = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert data["account"]["username"] == NAME and data["games"] == []

    page.get_by_role("link", name="Delete my account").click()
    expect(page.get_by_role("heading", name="Delete your account")).to_be_visible()
    page.get_by_label("Your password").fill("not-my-password")
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.locator(".field-error")).to_have_text("That is not your password.")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.get_by_role("heading", name="Account deleted")).to_be_visible()
    expect(page.locator(".site-nav")).not_to_contain_text(NAME)

    assert page.goto(f"/players/{NAME}/").status == 404
    sign_up(page, NAME)  # the name is free again
    page.goto("/me/")
    expect(page.get_by_role("heading", name=NAME)).to_be_visible()
    expect(page.get_by_role("link", name="Delete my account")).to_be_visible()
