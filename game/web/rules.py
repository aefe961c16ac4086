"""
/rules/, How to play: the rule book's own sections (setup, removals, taps, score,
end, what the app does) and what this site adds, with the rule book's worked
example drawn as its scheme: deal HM1-N-AAAAAAB before and after its first move.

The example is the rule book's public deal, on every form as the model code, so
its picture gives nothing away. Each scheme is an image (game/web/scheme_picture.py)
described by the position in the rule book's words (`scheme.describe`).
"""

from django.conf import settings
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.engine import Deal, Game
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.engine.game import UNDO_LIMIT
from game.engine.scheme import describe
from game.race.refusals import MAX_PLAYERS
from game.web import scheme_picture

FIRST_MOVE, SECOND_MOVE = RULE_BOOK_WIN[0], RULE_BOOK_WIN[1]
"""The pair 5♠ + 6♦ (piles 1 and 8), then the trio it uncovers (piles 8, 5 and 3)."""


def _example():
    """The two schemes: the deal as dealt, its first move outlined, then the position
    after it, the next move's trio outlined; each with its words."""
    before = Game(Deal.from_code(RULE_BOOK_DEAL))
    after = Game(Deal.from_code(RULE_BOOK_DEAL))
    after.remove(FIRST_MOVE)
    lang = scheme_picture.language()
    code = {"code": RULE_BOOK_DEAL}
    shown = (
        ("before", before, FIRST_MOVE, gettext("Deal %(code)s before its first move") % code),
        ("after", after, SECOND_MOVE, gettext("Deal %(code)s after its first move") % code),
    )
    return {
        name: {
            "id": f"scheme-{name}",
            "picture": scheme_picture.draw(game, title, marked, f"scheme-{name}-words"),
            "words": describe(game, lang),
        }
        for name, game, marked, title in shown
    }


@require_safe
def rules(request):
    """How to play, in the browser's language."""
    context = {
        "code": RULE_BOOK_DEAL,
        "code_shown": format_html('<span class="deal-code-inline">{}</span>', RULE_BOOK_DEAL),
        "example": _example(),
        "minutes": settings.HALFMOON_TIME_LIMIT_S // 60,
        "max_players": MAX_PLAYERS,
        "undo_limit": UNDO_LIMIT,
    }
    return render(request, "game/rules.html", context)
