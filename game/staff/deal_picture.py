"""
A deal's layout drawn as the rule book's scheme, in SVG, for the staff's pages.

The rule book: "the piles draw an arc open downwards: 3 piles on the left, 7 on
top, 2 on the right under the corner. The reserve takes the centre of the arc,
in two rows of four. [...] The schemes add, under each card, the number of the
pile (1 to 12) or of the reserve slot (R1 to R8) and its number of cards." So
each slot is its top card (in the reader's rule-book letters: R♥ in French)
over "number · count", on the grid of `scheme.ARC_ROWS` with the reserve half
a column right, as the table (frontend/js/table.js) lays it out. Staff see
every deal's layout; the picture is never part of a player's page.
"""

from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, gettext

from game.engine import Game
from game.engine.scheme import ARC_ROWS, LANGUAGES, card_label, scheme

CELL_W, CELL_H = 56, 86
CARD_W, CARD_H = 46, 62
MARGIN = 10
WIDTH = MARGIN * 2 + CELL_W * len(ARC_ROWS[0])
HEIGHT = MARGIN * 2 + CELL_H * len(ARC_ROWS)
RED_SUITS = ("H", "D")


def _places():
    """{slot: (x, y)} of each slot's card, top left corner."""
    places = {}
    for row, cells in enumerate(ARC_ROWS):
        for column, slot in enumerate(cells):
            if slot is not None:
                shift = CELL_W / 2 if slot.startswith("R") else 0
                x = MARGIN + column * CELL_W + shift + (CELL_W - CARD_W) / 2
                places[slot] = (x, MARGIN + row * CELL_H)
    return places


def _language():
    language = (get_language() or "en")[:2]
    return language if language in LANGUAGES else "en"


def _slot(view, place, lang):
    x, y = place
    name = view.slot[1:] if view.slot.startswith("P") else view.slot
    middle = x + CARD_W / 2
    if view.top is None:
        face = format_html(
            '<rect class="empty" x="{}" y="{}" width="{}" height="{}" rx="5"/>',
            x,
            y,
            CARD_W,
            CARD_H,
        )
    else:
        colour = "red" if view.top[-1] in RED_SUITS else "black"
        face = format_html(
            '<rect class="card" x="{}" y="{}" width="{}" height="{}" rx="5"/>'
            '<text class="face {}" x="{}" y="{}" text-anchor="middle">{}</text>',
            x,
            y,
            CARD_W,
            CARD_H,
            colour,
            middle,
            y + CARD_H / 2 + 7,
            card_label(view.top, lang),
        )
    caption = format_html(
        '<text class="caption" x="{}" y="{}" text-anchor="middle">{} · {}</text>',
        middle,
        y + CARD_H + 15,
        name,
        view.count,
    )
    return format_html('<g data-slot="{}">{}{}</g>', view.slot, face, caption)


def picture(deal):
    """The SVG of a `Deal` row's layout as dealt: top cards, slot numbers, card counts."""
    views = scheme(Game(deal.engine_deal()))
    places = _places()
    lang = _language()
    title = gettext("Layout of %(code)s") % {"code": deal.code}
    slots = format_html_join("", "{}", ((_slot(view, places[view.slot], lang),) for view in views))
    return format_html(
        '<svg class="deal-picture" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        '<title>{}</title><rect class="felt" width="{}" height="{}" rx="14"/>{}</svg>',
        WIDTH,
        HEIGHT,
        title,
        title,
        WIDTH,
        HEIGHT,
        slots,
    )
