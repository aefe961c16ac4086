"""The shared rule and tap cases, run in the page against frontend/js.

The same files run in Node (tests/js) in milliseconds; here they prove the
modules the page serves are the ones tested, and work in the browser.
"""

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

TESTS = Path(__file__).parents[1]
RULE_CASES = json.loads((TESTS / "rule_cases.json").read_text())["cases"]
TAP_CASES = json.loads((TESTS / "tap_cases.json").read_text())["cases"]


def test_every_rule_case_gets_the_engines_verdict_in_the_browser(page):
    page.goto("/")
    verdicts = page.evaluate(
        """async (cases) => {
            const { judge } = await import("/static/js/rules.js");
            return cases.map((c) => judge(c.cards));
        }""",
        RULE_CASES,
    )
    assert len(verdicts) == len(RULE_CASES) > 40
    wrong = [
        (case["cards"], case["verdict"], got)
        for case, got in zip(RULE_CASES, verdicts, strict=True)
        if got != case["verdict"]
    ]
    assert wrong == []


def test_taps_in_the_page_follow_the_rule_book(page):
    page.goto("/")
    results = page.evaluate(
        """async (cases) => {
            const { tap } = await import("/static/js/selection.js");
            return cases.map(({ taps }) => {
                let state = { selected: [] };
                for (const pick of taps) state = tap(state.selected, pick);
                const { selected, move, error } = state;
                return { selected: selected.map((s) => s.slot), move, error };
            });
        }""",
        TAP_CASES,
    )
    assert len(results) == len(TAP_CASES) > 10
    got = {case["name"]: result for case, result in zip(TAP_CASES, results, strict=True)}
    assert got == {
        case["name"]: {key: case[key] for key in ("selected", "move", "error")}
        for case in TAP_CASES
    }
