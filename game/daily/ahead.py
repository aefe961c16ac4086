"""
The coming days' automatic picks, known ahead: each day's candidates (ranked and
guests'), analysed best first a round at a time until `daily.choose` settles the day;
usually its first candidates do. Then the staff's calendar shows every coming day's
deal, and midnight's pick needs no solving.

`rounds` says what to analyse; the caller analyses it: `manage.py analyse_deals
--daily-candidates 28` in a process pool with a progress bar, or the calendar's "Fill
the coming four weeks" button (game/staff/fill.py) in the server's solver pool, off the
request, its progress shown on the calendar.
"""

import datetime

from game.base import days
from game.deals import daily
from game.models import Deal
from game.solver.rows import needs_analysis, rows_of

DAYS = 28
"""Days after today the button fills: the calendar's four coming weeks."""


def rounds(ahead):
    """Yield `(todo, settled, total)` a round at a time: the rows still to analyse, and
    how many of the (day, board) picks of today and the next `ahead` days are known.
    The caller stores the analyses of `todo` before asking for the next round."""
    today = days.today()
    dates = [today + datetime.timedelta(days=n) for n in range(ahead + 1)]
    waiting = {
        (d, b): list(daily.candidates(d, b)) for d in dates for b in (daily.RANKED, daily.GUESTS)
    }
    total = len(waiting)
    for index in range(daily.CANDIDATES):
        rows = rows_of([codes[index] for codes in waiting.values()])
        todo = [row for row in rows if needs_analysis(row)]
        if todo:
            yield todo, total - len(waiting), total
        waiting = _unsettled(waiting)
        if not waiting:
            break
    yield [], total - len(waiting), total


def _unsettled(waiting):
    """The picks of `waiting` that the verdicts stored so far do not settle yet."""
    known = Deal.objects.filter(code__in=[c for codes in waiting.values() for c in codes])
    verdicts = dict(known.values_list("code", "verdict"))
    return {
        pick: codes for pick, codes in waiting.items() if daily.choose(codes, verdicts.get) is None
    }
