"""The shared rule cases, run in the page against frontend/js/rules.js."""

import json
from pathlib import Path

CASES = json.loads((Path(__file__).parents[1] / "rule_cases.json").read_text())["cases"]


def test_every_rule_case_gets_the_engines_verdict_in_the_browser(page):
    page.goto("/")
    verdicts = page.evaluate(
        """async (cases) => {
            const { judge } = await import("/static/js/rules.js");
            return cases.map((c) => judge(c.cards));
        }""",
        CASES,
    )
    assert len(verdicts) == len(CASES) > 40
    wrong = [
        (case["cards"], case["verdict"], got)
        for case, got in zip(CASES, verdicts, strict=True)
        if got != case["verdict"]
    ]
    assert wrong == []


SELECTIONS = [
    # (cards tapped one after another, slots still selected, move sent, last error)
    (["JC", "QH", "QS"], ["c"], None, "needs_jqk"),  # a second Queen is the new selection
    (["JC", "QH", "JC@a"], ["b"], None, None),  # tapping a selected card deselects it alone
    (["KH", "5S"], [], None, "needs_jqk"),
    (["5S", "KH"], [], None, "sum_not_11"),
    (["QH", "KH", "JC"], [], ["a", "b", "c"], None),
    (["5S", "6D"], [], ["a", "b"], None),
]


def test_taps_in_the_page_follow_the_rule_book(page):
    page.goto("/")
    results = page.evaluate(
        """async (scenarios) => {
            const { tap } = await import("/static/js/selection.js");
            return scenarios.map((cards) => {
                let state = { selected: [] };
                cards.forEach((spec, i) => {
                    const [card, again] = spec.split("@");
                    const slot = again || "abc"[i];
                    state = tap(state.selected, { slot, card });
                });
                return [state.selected.map((s) => s.slot), state.move, state.error];
            });
        }""",
        [cards for cards, *_ in SELECTIONS],
    )
    assert results == [[selected, move, error] for _, selected, move, error in SELECTIONS]
