"""
A deal's layout as dealt, drawn as the rule book's scheme (game/web/scheme_picture.py),
for the staff's pages: staff see every deal's layout, so the picture of a deal
row is never part of a player's page.
"""

from django.utils.translation import gettext

from game.engine import Game
from game.web import scheme_picture


def picture(deal):
    """The SVG of a `Deal` row's layout as dealt: top cards, slot numbers, card counts."""
    title = gettext("Layout of %(code)s") % {"code": deal.code}
    return scheme_picture.draw(Game(deal.engine_deal()), title)
