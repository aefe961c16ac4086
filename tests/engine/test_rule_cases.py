"""The engine agrees with the shared rule cases the browser client also runs."""

import json
from pathlib import Path

import pytest

from game.engine import Game, IllegalMove
from game.engine.rules import FITS, OPEN, judge
from tests.support.engine import layout_with_tops

CASES = json.loads((Path(__file__).parents[1] / "rule_cases.json").read_text())["cases"]


def case_id(case):
    return "-".join(case["cards"]) or "no-card"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_judge_gives_the_shared_verdict(case):
    assert judge(case["cards"]) == case["verdict"], case["why"]


@pytest.mark.parametrize(
    "case",
    [case for case in CASES if case["verdict"] != OPEN],
    ids=case_id,
)
def test_the_game_accepts_or_refuses_the_cards_as_the_case_says(case):
    cards = case["cards"]
    reserve = cards + [filler for filler in ("AS", "AH", "AD") if filler not in cards]
    reserve = (reserve + ["2S", "2H", "2D", "2C", "3S"])[:8]
    game = Game(layout_with_tops([[]] * 12, reserve))
    slots = [f"R{n}" for n in range(1, len(cards) + 1)]
    if case["verdict"] != FITS:
        with pytest.raises(IllegalMove) as caught:
            game.remove(slots)
        assert caught.value.code == case["verdict"]
    else:
        assert game.remove(slots).removed == tuple(cards)
