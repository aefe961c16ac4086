"""Screenshots of the solo table for a person to look at (tests/artifacts/)."""

import pytest
from playwright.sync_api import expect

from tests.support.table import open_deal, screenshot, tap

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("name", "width", "height"), [("desktop", 1920, 1080), ("phone", 360, 780)]
)
def test_solo_table_screenshot(new_page, artifacts, name, width, height):
    page = open_deal(new_page(width=width, height=height))
    tap(page, "P1", "P8", "P5")  # a pair gone, a face card selected
    expect(page.locator(".card.selected")).to_have_count(1)
    screenshot(page, artifacts / f"solo-{name}.jpg")


def test_a_phones_cards_are_big_enough_to_tap_and_the_whole_table_fits(new_page, artifacts):
    page = open_deal(new_page(width=390, height=844))
    widths = [page.locator(".card").nth(i).bounding_box()["width"] for i in range(20)]
    assert min(widths) >= 44, f"cards as narrow as {min(widths):.1f}px"
    lowest = max(
        box["y"] + box["height"]
        for box in (page.locator(".slot").nth(i).bounding_box() for i in range(20))
    )
    assert lowest <= 844
    screenshot(page, artifacts / "solo-phone-390x844.jpg")
