"""Screenshots of the solo table for a person to look at (tests/e2e/artifacts/)."""

import pytest
from playwright.sync_api import expect

from .table import open_deal, screenshot, tap


@pytest.mark.parametrize(
    ("name", "width", "height"), [("desktop", 1920, 1080), ("phone", 360, 780)]
)
def test_solo_table_screenshot(new_page, artifacts, name, width, height):
    page = open_deal(new_page(width=width, height=height))
    tap(page, "P1", "P8", "P5")  # a pair gone, a face card selected
    expect(page.locator(".card.selected")).to_have_count(1)
    screenshot(page, artifacts / f"solo-{name}.png")
