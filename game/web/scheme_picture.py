"""
A position drawn as the rule book's scheme, in SVG: the staff's deal pictures and
the worked example of the How-to-play page (game/web/rules.py) draw it here.

The rule book: "the piles draw an arc open downwards: 3 piles on the left, 7 on
top, 2 on the right under the corner. The reserve takes the centre of the arc,
in two rows of four. [...] The schemes add, under each card, the number of the
pile (1 to 12) or of the reserve slot (R1 to R8) and its number of cards." So
each slot is its top card (in the reader's rule-book letters: R♥ in French)
over "number · count", on the grid of `scheme.ARC_ROWS` with the reserve half
a column right, as the table (frontend/js/table.js) lays it out. The colours are
the SVG's own attributes, so it needs no stylesheet (a player's page or the
admin's), and its classes are its own (`scheme-…`: the table's `.card` styles
would size its rectangles); it is an image whose words the page gives beside it
(`scheme.describe`).
"""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from game.engine.scheme import ARC_ROWS, LANGUAGES, card_label, scheme

CELL_W, CELL_H = 56, 86
CARD_W, CARD_H = 46, 62
MARGIN = 10
WIDTH = MARGIN * 2 + CELL_W * len(ARC_ROWS[0])
HEIGHT = MARGIN * 2 + CELL_H * len(ARC_ROWS)
RED_SUITS = ("H", "D")
FELT, CARD, CARD_EDGE, MARK = "#145c3a", "#fffdf6", "#d8d1bd", "#f4d58d"
RED, BLACK, CAPTION = "#c4262e", "#17191c", "#f3f1e8"
FACE_FONT = mark_safe('font-family="Georgia, DejaVu Serif, serif" font-size="17" font-weight="700"')
CAPTION_FONT = mark_safe('font-family="system-ui, sans-serif" font-size="11" font-weight="600"')


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


def language():
    """The page's language if the rule book has its letters, else English."""
    lang = (get_language() or "en")[:2]
    return lang if lang in LANGUAGES else "en"


def _face(view, x, y, lang, marked):
    if view.top is None:
        return format_html(
            '<rect class="scheme-empty" x="{}" y="{}" width="{}" height="{}" rx="5" fill="none"'
            ' stroke="#ffffff" stroke-opacity="0.35" stroke-dasharray="4 3"/>',
            x,
            y,
            CARD_W,
            CARD_H,
        )
    edge = (MARK, 4) if marked else (CARD_EDGE, 1)
    return format_html(
        '<rect class="scheme-card" x="{}" y="{}" width="{}" height="{}" rx="5" fill="{}"'
        ' stroke="{}" stroke-width="{}"/><text class="scheme-face" x="{}" y="{}"'
        ' text-anchor="middle" fill="{}" {}>{}</text>',
        x,
        y,
        CARD_W,
        CARD_H,
        CARD,
        *edge,
        x + CARD_W / 2,
        y + CARD_H / 2 + 7,
        RED if view.top[-1] in RED_SUITS else BLACK,
        FACE_FONT,
        card_label(view.top, lang),
    )


def _slot(view, place, lang, marked):
    x, y = place
    name = view.slot[1:] if view.slot.startswith("P") else view.slot
    caption = format_html(
        '<text class="scheme-caption" x="{}" y="{}" text-anchor="middle" fill="{}"'
        " {}>{} · {}</text>",
        x + CARD_W / 2,
        y + CARD_H + 15,
        CAPTION,
        CAPTION_FONT,
        name,
        view.count,
    )
    return format_html(
        '<g data-slot="{}"{}>{}{}</g>',
        view.slot,
        mark_safe(' class="marked"') if marked else "",
        _face(view, x, y, lang, marked),
        caption,
    )


def draw(game, title, marked=(), described_by=None):
    """The SVG of an engine `Game`'s position: top cards, slot numbers, card counts, the
    `marked` slots outlined; an image named `title`, described by the element with the
    id `described_by` (the position in words) when given."""
    places, lang = _places(), language()
    slots = format_html_join(
        "",
        "{}",
        ((_slot(view, places[view.slot], lang, view.slot in marked),) for view in scheme(game)),
    )
    described = format_html(' aria-describedby="{}"', described_by) if described_by else ""
    return format_html(
        '<svg class="deal-picture" viewBox="0 0 {} {}" role="img" aria-label="{}"{}>'
        '<title>{}</title><rect class="scheme-felt" width="{}" height="{}" rx="14"'
        ' fill="{}"/>{}</svg>',
        WIDTH,
        HEIGHT,
        title,
        described,
        title,
        WIDTH,
        HEIGHT,
        FELT,
        slots,
    )
