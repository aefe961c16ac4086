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
