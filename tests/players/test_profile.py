"""A profile in Chromium: its chart of results readable with one game and with
hundreds (a narrow bar over a score axis, never a block filling the chart), and
its history in the page's language: mode names translated, dates as the language
writes them."""

import json

import pytest
from playwright.sync_api import expect

from game.testing import live

pytestmark = pytest.mark.e2e

SEED = """
import datetime
from django.contrib.auth.models import User
from game.models import Deal, Entry, Race
name, count = {name!r}, {count}
user = User.objects.create(username=name)
deal = Deal.for_code("HM1-N-AAAAAAB")
modes = [Race.SOLO, Race.RACE, Race.QUICK, Race.DAILY, Race.GHOST]
races = Race.objects.bulk_create(
    Race(room=f"{{name[:3]}}{{n:05d}}".upper(), deal=deal, mode=modes[n % 5], status=Race.FINISHED)
    for n in range(count)
)
Entry.objects.bulk_create(
    Entry(race=race, player_key=(name + "-" * 32)[:32], user=user, name=name,
          status=[Entry.WON, Entry.RESIGNED, Entry.ABANDONED][n % 3],
          score=520 if n % 3 == 0 else 10 * (n % 40), time_ms=60_000 + n if n % 3 == 0 else None,
          review=Entry.CLEAN)
    for n, race in enumerate(races)
)
played = datetime.datetime(2026, 3, 4, 12, tzinfo=datetime.UTC)
Entry.objects.filter(user=user).update(joined_at=played, finished_at=played)
"""
"""An account `name` with `count` finished games on 4 March 2026, the modes in turn
(solo, race, quick race, daily, ghost race), won (with 520), given up, left, in turn."""

MODES = {
    "en-US": ("Solo", "Race", "Quick race", "Daily", "Ghost race"),
    "fr-FR": ("Solo", "Course", "Course rapide", "Donne du jour", "Course fantôme"),
    "ca-ES": ("En solitari", "Cursa", "Cursa ràpida", "Distribució del dia", "Cursa fantasma"),
    "ro-RO": ("Individual", "Cursă", "Cursă rapidă", "Distribuția zilei", "Cursă cu fantoma"),
}
RESULTS = {
    "en-US": {"won", "resigned", "left the race"},
    "fr-FR": {"gagné", "abandon", "a quitté la course"},
    "ca-ES": {"guanyada", "abandonada", "ha deixat la cursa"},
    "ro-RO": {"câștigat", "abandon", "a părăsit cursa"},
}
DATES = {"en-US": "03/04/2026", "fr-FR": "04/03/2026", "ca-ES": "04/03/2026", "ro-RO": "04.03.2026"}
"""4 March 2026 as each language writes a short date."""


@pytest.fixture(scope="module")
def profiles(server):
    """Two accounts: one with a single game, one with 150."""
    for name, count in (("one-game", 1), ("many-games", 150)):
        live.manage(server.env, "shell", "-c", SEED.format(name=name, count=count))
    return {"one": "/players/one-game/", "many": "/players/many-games/"}


def chart_geometry(page):
    """The chart's boxes in CSS pixels: the svg, each bar, the axis, the score labels."""
    return page.evaluate(
        """() => {
          const box = (el) => { const r = el.getBoundingClientRect();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
          const svg = document.querySelector(".history-chart");
          return {
            svg: box(svg),
            bars: [...svg.querySelectorAll("rect")].map(box),
            axis: box(svg.querySelector(".chart-axis")),
            grid: [...svg.querySelectorAll(".chart-grid")].map(box),
            labels: [...svg.querySelectorAll(".chart-label")].map((t) => t.textContent),
          };
        }"""
    )


def test_one_game_is_one_narrow_bar_over_a_score_axis(new_page, profiles):
    page = new_page(width=390, height=844)
    page.goto(profiles["one"])
    geometry = chart_geometry(page)
    (bar,) = geometry["bars"]
    svg, axis = geometry["svg"], geometry["axis"]
    assert bar["width"] <= svg["width"] * 24 / 400 + 0.5  # capped, not the whole chart
    assert abs((bar["left"] + bar["right"]) / 2 - (axis["left"] + axis["right"]) / 2) < 1
    assert abs(bar["bottom"] - axis["top"]) < 1.5  # standing on the axis
    top_line = min(geometry["grid"], key=lambda line: line["top"])
    assert abs(bar["top"] - top_line["top"]) < 1.5  # 520 reaches the 520 line
    assert geometry["labels"][:5] == ["0", "130", "260", "390", "520"]
    assert geometry["labels"][5:] == ["03/04/2026"]  # its date under it


def test_hundreds_of_games_are_the_last_hundred_bars_side_by_side(new_page, profiles):
    page = new_page()
    page.goto(profiles["many"])
    geometry = chart_geometry(page)
    bars, axis = geometry["bars"], geometry["axis"]
    assert len(bars) == 100
    assert bars[0]["left"] >= axis["left"] - 0.5 and bars[-1]["right"] <= axis["right"] + 0.5
    for left, right in zip(bars, bars[1:], strict=False):
        assert left["right"] < right["left"]  # a gap between every two
    widths = {round(bar["width"], 1) for bar in bars}
    assert len(widths) == 1 and widths.pop() >= 2
    assert all(abs(bar["bottom"] - axis["top"]) < 1.5 for bar in bars)
    expect(page.locator(".history tbody tr")).to_have_count(100)


@pytest.mark.parametrize("locale", sorted(MODES))
def test_the_history_names_modes_and_dates_in_the_pages_language(new_page, profiles, locale):
    page = new_page(locale=locale)
    page.goto(profiles["many"])
    rows = page.locator(".history tbody tr")
    modes = rows.locator("td:nth-child(2)").all_text_contents()
    assert set(modes) == set(MODES[locale]), json.dumps(modes[:5], ensure_ascii=False)
    assert set(rows.locator("td:nth-child(1)").all_text_contents()) == {DATES[locale]}
    results = {text.strip() for text in rows.locator("td:nth-child(3)").all_text_contents()}
    assert results == RESULTS[locale]
    assert chart_geometry(page)["labels"][5:] == [DATES[locale]]
