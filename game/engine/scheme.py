"""The rule book's scheme of a position: every slot's name, card count and top card.

``scheme()`` is the data (what the server sends, never a hidden card);
``describe()`` renders it in the rule book's sentence style and ``arc()``
draws it as the table, 3 piles left, 7 on top, 2 right, reserve in the middle.
"""

from typing import NamedTuple

from .cards import SLOTS, SUIT_SYMBOLS

LANGUAGES = ("en", "fr", "ca", "ro")


class SlotView(NamedTuple):
    slot: str
    count: int
    top: str | None


def scheme(game):
    return [
        SlotView(slot, len(stack), stack[-1] if stack else None) for slot, stack in _stacks(game)
    ]


def _stacks(game):
    return ((slot, game.stack(slot)) for slot in SLOTS)


_FACE_LETTERS = {
    "en": {"J": "J", "Q": "Q", "K": "K"},
    "fr": {"J": "V", "Q": "D", "K": "R"},
    "ca": {"J": "V", "Q": "D", "K": "R"},
    "ro": {"J": "V", "Q": "D", "K": "R"},
}

_RO_RANKS = {"A": "as", "J": "valet", "Q": "damă", "K": "rege"}
_RO_SUITS = {"S": "pică", "H": "cupă", "D": "caro", "C": "treflă"}


def card_label(card, lang="en"):
    """A card as the rule book of ``lang`` prints it: ``K♥`` in English, ``R♥`` in French."""
    rank = card[:-1]
    return _FACE_LETTERS[lang].get(rank, rank) + SUIT_SYMBOLS[card[-1]]


def _ro_card(card):
    rank = card[:-1]
    return f"{_RO_RANKS.get(rank, rank)} de {_RO_SUITS[card[-1]]}"


def _sentence(view, lang):
    number = view.slot[1:] if view.slot.startswith("P") else view.slot
    reserve = view.slot.startswith("R")
    count, top = view.count, view.top
    if lang == "ro":
        place = f"teancul {number}"
        if top is None:
            return f"{place}: gol"
        cards = "1 carte" if count == 1 else f"{count} cărți"
        return f"{place}: {cards}, {_ro_card(top)} deasupra"
    words = {
        "en": ("reserve" if reserve else "pile", "card", "cards", "on top", "empty", ":"),
        "fr": ("réserve" if reserve else "pile", "carte", "cartes", "dessus", "vide", " :"),
        "ca": ("reserva" if reserve else "pila", "carta", "cartes", "a sobre", "buida", ":"),
    }[lang]
    place, one, many, on_top, empty, colon = words
    if top is None:
        return f"{place} {number}{colon} {empty}"
    cards = f"1 {one}" if count == 1 else f"{count} {many}"
    return f"{place} {number}{colon} {cards}, {card_label(top, lang)} {on_top}"


def describe(game, lang="en"):
    """The scheme as one sentence per slot, joined as the rule book joins them."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    return "; ".join(_sentence(view, lang) for view in scheme(game)) + "."


ARC_ROWS = (
    (None, "P4", "P5", "P6", "P7", "P8", "P9", "P10", None),
    ("P3", None, None, None, None, None, None, None, "P11"),
    ("P2", None, "R1", "R2", "R3", "R4", None, None, "P12"),
    ("P1", None, "R5", "R6", "R7", "R8", None, None, None),
)
"""The table, pile 1 at the bottom left and numbered clockwise round the arc."""


ARC_CELL_WIDTH = 7
"""Characters per slot in ``arc()``: "10♥" or "12:8" with a space either side."""


def _arc_cell(view, lang):
    label = view.slot[1:] if view.slot.startswith("P") else view.slot
    return (card_label(view.top, lang) if view.top else "·"), f"{label}:{view.count}"


def arc(game, lang="en"):
    """The table as text: each card over its slot label and card count."""
    views = {view.slot: view for view in scheme(game)}
    lines = []
    for row in ARC_ROWS:
        cards, labels = [], []
        for slot in row:
            view = views.get(slot)
            card, label = ("", "") if view is None else _arc_cell(view, lang)
            cards.append(card)
            labels.append(label)
        lines.append("".join(text.center(ARC_CELL_WIDTH) for text in cards).rstrip())
        lines.append("".join(text.center(ARC_CELL_WIDTH) for text in labels).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
