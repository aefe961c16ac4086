"""
The all-time board (/daily/all-time/): accounts ranked by daily deals won, by
their longest run of consecutive days won, and by their best winning time, for
everyone or for one's friends (?view=friends).

Only ranked results count (`Entry.ranked`: an account's, judged clean or
confirmed), so a flagged or disqualified win never does. The figures are the
accounts' all-time records (`Record`, kept when a result is judged:
game/race/records.py), each board one index of them (game/daily/boards.py): before
the records, the board aggregated every ranked daily win on each view (150-270 ms
at 81,800 results, docs/fair-play.md).
"""

from django.http import Http404
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from game.base import links
from game.daily import boards
from game.models import ALL_TIME_START, Record

BOARDS = boards.BOARDS


def board_page(board, page, viewer_id=None, among=None):
    """One page of a board, the viewer's own row wherever it is, and whether more follow."""
    return boards.records_page(Record.ALL, ALL_TIME_START, board, page, viewer_id, among)


@require_safe
def all_time(request, board="wins"):
    if board not in BOARDS:
        raise Http404(gettext("There is no such board."))
    tabs = [
        (links.route("game:all-time-board", name), title, name == board)
        for name, (title, *_) in BOARDS.items()
    ]
    context = {"heading": gettext("All-time board"), "tabs": tabs, "all_time": True}
    return boards.render_board(request, Record.ALL, ALL_TIME_START, board, context)
