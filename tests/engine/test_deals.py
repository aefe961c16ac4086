"""Deal codes and the HM1 shuffle: a code names the same deal forever."""

import hashlib
from collections import Counter

import pytest

from game.engine import BadDealCode, BadLayout, Deal, format_code, parse_code
from game.engine.cards import ALL_CARDS


def fingerprint(deal):
    text = " ".join(card for pile in deal.piles for card in pile) + "|" + " ".join(deal.reserve)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# Pinned when HM1 was released: changing any of these breaks every shared link.
VECTORS = [
    (
        "HM1-N-AAAAAAA",
        "8S 8S 8D 7H AD AH KH 3H 10S 4D 7D 2C",
        "KS 6C 6D JD 2C 4D 6S 5C",
        "6cf83dba243aa376",
    ),
    (
        "HM1-N-AAAAAAB",
        "5S AH KH 4C QH 5H 7S 6D 10D 10C 2D KH",
        "10H 6S 3D 4S 7D 5S JH AC",
        "5d503ecde5037783",
    ),
    (
        "HM1-N-AAAAAAC",
        "4C 9D 4C 8C JC 10H 5C 9C AS AH AH KD",
        "4H 7D 3H 8C 5S KH 3S 9S",
        "e0b2f49ba251b466",
    ),
    (
        "HM1-N-AAAAABA",
        "6D AH 3D 2D 6C 3C 8H 10H 3H 2H KD AC",
        "KS 8H 9S JH QS 5D 4H 2C",
        "b2e299efd9c195da",
    ),
    (
        "HM1-N-AAAASGV",
        "3H 5C JD JD 6C KC 9S JS JH 7S AD 8C",
        "QD 5C 2D 10D AC 6D 8D 2S",
        "6b7863258efb9379",
    ),
    (
        "HM1-N-ZZZZZZZ",
        "4H AS AH 7C JC 10C 7D AD 10H 5S KD 2H",
        "6C 2C 4S JS 9S JD 3S 6S",
        "526090e13948d4e9",
    ),
]


@pytest.mark.parametrize("code, tops, reserve, digest", VECTORS)
def test_a_code_reproduces_its_pinned_deal(code, tops, reserve, digest):
    deal = Deal.from_code(code)
    assert " ".join(pile[-1] for pile in deal.piles) == tops
    assert " ".join(deal.reserve) == reserve
    assert fingerprint(deal) == digest
    assert deal.code == code


def test_deal_one_is_the_rule_books_worked_example():
    deal = Deal.from_code("HM1-N-AAAAAAB")
    assert deal.piles[0][-2:] == ("7H", "5S")
    assert deal.piles[7][-2:] == ("JC", "6D")


@pytest.mark.parametrize("number", [0, 1, 2, 3, 99, 4567, 26**7 - 1])
def test_every_deal_holds_each_card_exactly_twice(number):
    deal = Deal.from_number(number)
    assert [len(pile) for pile in deal.piles] == [8] * 12
    assert len(deal.reserve) == 8
    counts = Counter(card for pile in deal.piles for card in pile) + Counter(deal.reserve)
    assert counts == Counter(dict.fromkeys(ALL_CARDS, 2))


def test_different_codes_give_different_deals():
    assert len({fingerprint(Deal.from_number(n)) for n in range(200)}) == 200


def test_codes_are_base_26_with_a_as_zero():
    assert parse_code("HM1-N-AAAAAAA") == ("N", 0)
    assert parse_code("HM1-N-AAAAAAB") == ("N", 1)
    assert parse_code("HM1-N-AAAAABA") == ("N", 26)
    assert parse_code("HM1-C-AAAAAAZ") == ("C", 25)
    assert format_code(26) == "HM1-N-AAAAABA"
    assert format_code(26**7 - 1) == "HM1-N-ZZZZZZZ"


def test_codes_are_case_insensitive():
    assert Deal.from_code("hm1-n-aaaaaab") == Deal.from_code("HM1-N-AAAAAAB")
    assert Deal.from_code("hm1-n-aaaaaab").code == "HM1-N-AAAAAAB"


@pytest.mark.parametrize(
    "code",
    [
        "HM1-N-AAAAAA",
        "HM2-N-AAAAAAB",
        "HM1-N-AAAAAA1",
        "",
        "x" * 10_000,
        "HM1-X-AAAAAAB",
        " HM1-N-AAAAAAB",
        "HM1-N-AAAAAAÄ",
        "HM1-N-AAAAAAAA",
    ],
)
def test_a_bad_code_is_a_clear_value_error(code):
    with pytest.raises(ValueError, match="not a deal code") as caught:
        Deal.from_code(code)
    assert isinstance(caught.value, BadDealCode)
    assert len(str(caught.value)) < 200


def test_a_code_that_is_not_text_is_a_value_error():
    with pytest.raises(BadDealCode, match="text"):
        Deal.from_code(12)


def test_a_custom_code_needs_the_server():
    with pytest.raises(BadDealCode, match="custom deal"):
        Deal.from_code("HM1-C-AAAAAAB")


def test_from_layout_round_trips_a_deal():
    deal = Deal.from_number(5)
    layout = deal.to_layout()
    assert Deal.from_layout(layout["piles"], layout["reserve"]) == deal


def test_from_layout_accepts_t_for_ten_and_lower_case():
    deal = Deal.from_number(7)
    piles = [[card.replace("10", "t").lower() for card in pile] for pile in deal.piles]
    assert Deal.from_layout(piles, deal.reserve) == deal


def test_from_layout_refuses_a_third_copy():
    deal = Deal.from_number(3)
    piles = [list(pile) for pile in deal.piles]
    piles[0][0] = "5S" if piles[0][0] != "5S" else "6S"
    with pytest.raises(BadLayout, match="exactly twice"):
        Deal.from_layout(piles, deal.reserve)


@pytest.mark.parametrize(
    "piles, reserve, message",
    [
        ([["5S"] * 8] * 11, ["5S"] * 8, "12 piles"),
        ([["5S"] * 8] * 12, ["5S"] * 7, "8 reserve"),
        ([["ZZ"] * 8] * 12, ["5S"] * 8, "not a card"),
        (5, [], "lists of card names"),
    ],
)
def test_from_layout_explains_a_bad_shape(piles, reserve, message):
    with pytest.raises(ValueError, match=message):
        Deal.from_layout(piles, reserve)
