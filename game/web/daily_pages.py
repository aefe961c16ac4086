"""
HTTP pages of the daily deal: /daily/ (today's one attempt, and the month's calendar
of the reader's days: game/web/archive.py), a day's leaderboard, /daily/<date>/ (with
the day's games played later, once it is over), and a finished day's explorer,
/daily/<date>/explorer/ (game/daily/explorer.py).

The day's page comes first for everyone: it says how the player stands today and
what their attempt will be; the attempt and its clock begin only on its "Play" (a
POST). A guest names themselves there: the name is what the board shows. What it
shows every reader alike (the day, its board's top, the month's winners) is made once
a second per process (game/daily/shared_day.py): a new result reaches it within about
a second; the reader's own row, attempt and days are read for each request.
The leaderboard's context is built here once, for the page and for the JSON API's
answer (game/web/api.py), and links each row's replay only where the viewer may
watch it (game/replays/watch.py). Playing today's deal creates the attempt, so it is
rate-limited like any race creation (game/web/pages.py).
"""

import datetime

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game.base import days
from game.base.errors import GameError, http_status
from game.base.inputs import board_view, date_or_404, page_number
from game.daily import archive, day_board, explorer, shared_day
from game.deals import daily, secrecy
from game.engine.scheme import LANGUAGES
from game.habits import calendar
from game.lobby import alone
from game.models import Entry
from game.players import accounts, identity
from game.race import protocol
from game.replays import watch
from game.results import verify
from game.web.archive import month_context
from game.web.pages import too_many_games, unranked_note
from game.web.record_boards import circle_of

TOP = 5
"""Results of the board shown on the day's page."""


@ensure_csrf_cookie
@require_http_methods(["GET", "HEAD", "POST"])
def daily_today(request):
    """Today's deal: the day's page (this player's status, the board's top, the rules
    of the day for them), then on "Play", a POST, their one attempt and its clock. A
    GET starts nothing: an account too new to rank that merely looks is not held to the
    guests' deal. A guest picks the name the board shows (their last one, prefilled)."""
    newcomer = _newcomer(request)
    key = identity.player_key(request.session)
    if request.method != "POST":
        return _daily_page(request, key, newcomer)
    refused = too_many_games(request, key)
    if refused:
        return refused
    name = identity.remembered_name(request.session)
    if not request.user.is_authenticated:
        try:
            name = protocol.clean_name(request.POST.get("name"))
        except GameError:
            return _daily_page(request, key, newcomer, name_error=True, status=400)
        identity.remember_name(request.session, name)
    return redirect(alone.daily_race(daily.daily_deal(), key, name).get_absolute_url())


@require_POST
def verification_deal(request):
    """A verification deal for the account's win held for its pace (game/results/verify.py):
    a deal nobody has seen, played alone; a 404 when no result of theirs waits for one."""
    held = verify.waiting(request.user)
    if held is None:
        raise Http404(gettext("No result of yours waits for a verification deal."))
    key = identity.player_key(request.session)
    race = alone.verification_race(held, key, identity.remembered_name(request.session))
    if race is None:  # no winnable unseen deal within the solver's budget
        return render(request, "500.html", status=503)
    return redirect(race.get_absolute_url())


def _newcomer(request):
    """Whether the reader is a guest whose browser had no player key before this
    request: a key made now has played nothing, so nothing of theirs is read (at the
    daily reset, nearly every reader)."""
    return not request.user.is_authenticated and identity.stored_key(request.session) is None


def _daily_page(request, key, newcomer, name_error=False, status=200):
    """The day's page: its part shared by every reader, at most a second old
    (game/daily/shared_day.py: a new result on the board within about a second, never
    yesterday's board under today's label), and this reader's part, made now."""
    shared = shared_day.current()
    day = shared.day
    board = day_board.seen_by(day, None if newcomer else key, shared.board, shown=TOP)
    attempt = None if newcomer else alone.daily_attempt(day, key)
    mine = Entry.objects.none() if newcomer else None
    context = {
        "label": secrecy.daily_label(day.date),
        "date": day.date,
        "next_deal_ms": days.next_deal_ms(),
        "name": request.session.get(identity.NAME_KEY, ""),
        "name_error": name_error,
        "attempt": attempt,
        "top": board["entries"],
        "you": board["you"],
        "month_days": month_context(
            request, calendar.month_of(day.date), day.date, shared.month, mine
        ),
        **_rules_for(request.user, attempt),
    }
    return render(request, "game/daily.html", context, status=status)


def _rules_for(user, attempt):
    """The day's rule for this player: "ranked" (an account that may rank), "young" (an
    account too new to rank, from when it ranks and whether that is still today),
    "guest"; and why an account's attempt already begun is not ranked (web/pages.py)."""
    if not user.is_authenticated:
        return {"rule": "guest"}
    if attempt is not None and not daily.on_ranked_deal(attempt):
        return {"rule": "unranked", "unranked_note": unranked_note(user)}
    if accounts.may_rank(user):
        return {"rule": "ranked"}
    ranks_at = user.date_joined + accounts.min_age()
    hours = f"{settings.HALFMOON_RANKED_MIN_AGE_H:g}"
    ranks_today = ranks_at.date() == days.today()  # UTC, as the day is
    return {"rule": "young", "hours": hours, "ranks_at": ranks_at, "ranks_today": ranks_today}


@require_safe
def leaderboard(request, date):
    view = board_view(request)
    circle = circle_of(request, view)
    key = identity.viewer_key(request.session)
    context = leaderboard_context(date_or_404(date), key, page_number(request), circle)
    context = {**context, "view": view, "month": days.today()}
    if context["deal_code"]:  # a day that is over: its games played later
        context["later"] = archive.played_later(context["date"])
    return render(request, "game/leaderboard.html", context)


def leaderboard_context(date, player_key, page=1, circle=None):
    """A day's ranked board as `player_key` sees it: a page of rows, their own row
    below when it is not on that page, and the links to the days around it; with
    `circle` (account ids), the Friends view of it."""
    day = daily.board_day(date)
    if day is None:
        raise Http404(gettext("There was no daily deal on %(date)s.") % {"date": date.isoformat()})
    if circle is None:
        board = day_board.daily_board(day, player_key, page)
    else:
        board = day_board.friends_board(day, circle, player_key)
    today = days.today()
    previous = date - datetime.timedelta(days=1)
    rows = board["entries"] + ([board["you"]] if board["you"] and not board["you_on_page"] else [])
    _link_replays(rows, board.pop("games"), player_key)
    return {
        "date": date,
        "deal_code": secrecy.daily_code(day),
        "label": secrecy.daily_label(date),
        "previous_day": previous if daily.has_day(previous) else None,
        "next_day": date + datetime.timedelta(days=1) if date < today else None,
        "rows": rows,
        **board,
    }


def _link_replays(rows, entries, viewer):
    """Each row's replay link, where the viewer may watch it (`entries`: the rows', read
    by the board with their race and deal)."""
    shown = watch.urls(entries, viewer)
    for row in rows:
        row["replay"] = shown.get(row["player"])


@require_safe
def explorer_page(request, date):
    """The tree of a finished day's games at the position `?line=` names; today's and
    days to come answer 403 `daily_locked`, a day with no deal a 404."""
    date = date_or_404(date)
    context = {"date": date, "label": secrecy.daily_label(date)}
    try:
        explorer.check_over(date)  # before day_of, which would pick today's deal
    except GameError as exc:
        context["locked"] = exc.code
        return render(request, "game/explorer.html", context, status=http_status(exc.code))
    day = daily.day_of(date)
    if day is None:
        raise Http404(gettext("There was no daily deal on %(date)s.") % {"date": date.isoformat()})
    lang = get_language()[:2]
    position = explorer.view(day, request.GET.get("line", ""), lang if lang in LANGUAGES else "en")
    context.update(position, deal_code=secrecy.daily_code(day))
    return render(request, "game/explorer.html", context)
