"""/rules/, How to play: the rule book's sections in four languages, and its worked
example drawn as the rule book's scheme of deal HM1-N-AAAAAAB, before and after
its first move."""

import re

import pytest

from tests.engine.test_rule_book import RULE_BOOK_SCHEME_RO as AFTER_IN_THE_RULE_BOOK

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]

PAGES = {
    "en": ("The rules of Half Moon", "The suit does not matter.", "J♣"),
    "fr": ("Les règles de Half Moon", "L’enseigne ne compte pas.", "V♣"),
    "ca": ("Les regles de Half Moon", "El pal no compta.", "V♣"),
    "ro": ("Regulile jocului Half Moon", "Culoarea nu contează.", "V♣"),
}


AFTER = {  # the same board as the Romanian scheme draws it: top card, "number · count"
    "P1": ("7♥", "1 · 7"), "P2": ("A♥", "2 · 8"), "P3": ("R♥", "3 · 8"), "P4": ("4♣", "4 · 8"),
    "P5": ("D♥", "5 · 8"), "P6": ("5♥", "6 · 8"), "P7": ("7♠", "7 · 8"), "P8": ("V♣", "8 · 7"),
    "P9": ("10♦", "9 · 8"), "P10": ("10♣", "10 · 8"), "P11": ("2♦", "11 · 8"),
    "P12": ("R♥", "12 · 8"), "R1": ("10♥", "R1 · 1"), "R2": ("6♠", "R2 · 1"),
    "R3": ("3♦", "R3 · 1"), "R4": ("4♠", "R4 · 1"), "R5": ("7♦", "R5 · 1"),
    "R6": ("5♠", "R6 · 1"), "R7": ("V♥", "R7 · 1"), "R8": ("A♣", "R8 · 1"),
}  # fmt: skip
BEFORE = {**AFTER, "P1": ("5♠", "1 · 8"), "P8": ("6♦", "8 · 8")}
SLOT = re.compile(
    r'<g data-slot="(\w+)"( class="marked")?>.*?<text class="scheme-face"[^>]*>([^<]+)</text>'
    r'.*?<text class="scheme-caption"[^>]*>([^<]+)</text></g>'
)


def scheme(page, name):
    """{slot: (top card, caption)} of the scheme `name`, and its outlined slots."""
    figure = page[page.index(f'id="scheme-{name}"') :]
    svg = figure[: figure.index("</svg>")]
    slots = SLOT.findall(svg)
    return {s: (face, caption) for s, _, face, caption in slots}, {s for s, m, *_ in slots if m}


@pytest.mark.parametrize("lang", sorted(PAGES))
def test_how_to_play_speaks_the_browsers_language(client, lang):
    title, sentence, jack_of_clubs = PAGES[lang]
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=lang)
    page = response.content.decode()
    assert response.status_code == 200 and f'<html lang="{lang}">' in page
    assert f"<h1>{title}</h1>" in page and sentence in page
    assert page.count("<h2 ") == 9 and "<main" in page and 'role="img"' in page
    assert scheme(page, "after")[0]["P8"][0] == jack_of_clubs  # the rule book's letters


def test_the_worked_example_is_the_rule_books_board_before_and_after_its_first_move(client):
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    assert scheme(page, "before") == (BEFORE, {"P1", "P8"})  # 5♠ + 6♦ = 11
    assert scheme(page, "after") == (AFTER, {"P8", "P5", "P3"})  # then V♣, D♥, R♥
    words = page[page.index('id="scheme-after-words">') :]
    assert words[len('id="scheme-after-words">') :].startswith(AFTER_IN_THE_RULE_BOOK)
    assert 'aria-describedby="scheme-after-words"' in page
    assert 'aria-label="Distribuția HM1-N-AAAAAAB după prima mutare"' in page


def test_how_to_play_answers_head_and_is_linked_from_the_lobby_and_the_table(client):
    head = client.head("/rules/")
    assert head.status_code == 200 and head.content == b""
    assert client.post("/rules/").status_code == 405
    assert 'href="/rules/"' in client.get("/").content.decode()
    table = client.get("/play/HM1-N-AAAAAAB/").content.decode()
    assert '<a href="/rules/" target="_blank" rel="noopener">How to play' in table
    assert 'id="first-tip"' in table and "New here?" in table
