"""The Python side of the browser's HM1 shuffle test.

tests/hm1_deals.json holds the engine's deals for 2,000 codes (and one digest over
deals 0–9,999) for tests/js/hm1.test.mjs, which deals them with frontend/js/hm1.js:
the offline practice game must deal the server's board. This test fails when the
file is no longer what the engine deals; `python -m tests.engine.test_hm1_fixture`
writes it anew.
"""

import hashlib
import json
import random
from pathlib import Path

from game.engine import Deal
from game.engine.cards import ALL_CARDS
from game.engine.deals import MAX_NUMBER

FIXTURE = Path(__file__).resolve().parents[1] / "hm1_deals.json"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SEQUENTIAL = 10_000


def cards(deal):
    return [card for pile in deal.piles for card in pile] + list(deal.reserve)


def numbers():
    """Deals 0–999, 999 spread over the whole range, and the last one."""
    spread = random.Random(17)
    return list(range(1000)) + [spread.randrange(MAX_NUMBER) for _ in range(999)] + [MAX_NUMBER]


def expected():
    letter = dict(zip(ALL_CARDS, LETTERS, strict=True))
    deals = {}
    for number in numbers():
        deal = Deal.from_number(number)
        deals[deal.code] = "".join(letter[card] for card in cards(deal))
    text = "".join(" ".join(cards(Deal.from_number(n))) + "\n" for n in range(SEQUENTIAL))
    return {
        "about": "The engine's HM1 deals (tests/engine/test_hm1_fixture.py writes this file).",
        "cards": " ".join(ALL_CARDS),
        "letters": LETTERS,
        "deals": deals,
        "sequential": {"count": SEQUENTIAL, "sha256": hashlib.sha256(text.encode()).hexdigest()},
    }


def test_the_fixture_is_what_the_engine_deals():
    assert json.loads(FIXTURE.read_text()) == expected(), (
        "tests/hm1_deals.json is stale: run python -m tests.engine.test_hm1_fixture"
    )


def test_the_fixture_covers_thousands_of_codes_and_the_rule_books_deal():
    fixture = json.loads(FIXTURE.read_text())
    assert len(fixture["deals"]) == 2000
    assert "HM1-N-AAAAAAB" in fixture["deals"] and "HM1-N-ZZZZZZZ" in fixture["deals"]


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(expected(), indent=0, sort_keys=True) + "\n")
