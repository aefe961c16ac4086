"""
HTTP pages that open a race, a game or a replay: the lobby, /play/<code>/,
/race/<room>/, /replay/<room>/<player>/, and the 404 page.

Pages only translate: they read the session's player key (game/players/identity.py),
call the packages that decide (game/lobby/alone.py, game/replays/watch.py, ...),
and render what comes back, in the browser's language. Whatever creates a race
(/play/, and /daily/ in game/web/daily_pages.py) is rate-limited per player and
per client address (game/base/limits.py), and a deal code reaches a page only
through game/deals/secrecy.py. The JSON API (game/web/api.py) shares the lookups
here, so a page and its API answer refuse alike.
"""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.text import Truncator
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from game.base import limits
from game.base.errors import GameError, http_status
from game.deals import codes, daily, secrecy
from game.events import listing
from game.lobby import alone
from game.models import Race
from game.players import accounts, identity
from game.replays import watch
from game.runs import ghosts, sandbox
from game.web.handlers import on_any_thread

DEAL_ERRORS = {
    "bad_deal": gettext_lazy("“%(code)s” is not a deal code."),
    "no_such_deal": gettext_lazy("No custom deal has the code %(code)s."),
}
"""What the lobby says when /play/<code>/ cannot deal that code (the API's own
messages stay English: they are for developers)."""


def race_or_404(room):
    race = Race.objects.select_related("deal").filter(room=room).first()
    if race is None:
        raise Http404(gettext("There is no race %(room)s.") % {"room": room[:8]})
    return race


def watchable_replay(room, player, player_key):
    """The replay the viewer may watch (`watchable_entry`'s)."""
    entry = watchable_entry(room, player, player_key)
    return watch.replay(entry.race, entry, player_key)


def watchable_entry(room, player, player_key):
    """The game whose replay the viewer may watch; the same Http404 whether it is missing
    or not visible yet, so a hidden game does not even show that it exists."""
    entry = watch.find(room, player)
    if entry is None or not watch.visible(entry.race, entry, player_key):
        reason = gettext(
            "There is no replay of player %(player)s in %(room)s to watch. A game can be"
            " watched once it is over; by others, a daily deal once its day is over and a"
            " race once it has finished."
        )
        raise Http404(reason % {"player": player, "room": room[:8]})
    return entry


def too_many_games(request, player_key):
    """The lobby saying so when this player opens games faster than the limit allows
    (the opening is counted), else None."""
    try:
        limits.spend(request, "create", player_key)
    except GameError as exc:
        too_many = gettext("You opened too many games at once. Wait a moment, then try again.")
        return lobby(request, error=too_many, status=http_status(exc.code))
    return None


def table(request, race, mode):
    """The table; the deal's code only when a player may see it (game/deals/secrecy.py)."""
    code = secrecy.shown_code(race)
    if code is None:
        label = secrecy.hidden_label(race)
    elif mode == "solo" and race.daily_date:
        label = secrecy.later_label(race.daily_date)
    else:
        practice = race.daily_date if mode == "ghost" else None
        if mode == "solo":
            practice = secrecy.practice_of(race.deal)
        label = secrecy.practice_label(practice) if practice else None
    context = {
        "room": race.room,
        "mode": mode,
        "deal_code": code,
        "deal_label": label,
        "ws_path": race.ws_path,
        "daily_date": race.daily_date,
        "unranked_note": _unranked_note(request, race, mode),
        "event": race.event_game.entry.event if mode == "event" else None,
    }
    return render(request, "game/table.html", context)


def _unranked_note(request, race, mode):
    """Why this game is not ranked: a past day played later, or an account's attempt at
    the day on the guests' deal; or None (a guest's daily page says it before the
    attempt: game/templates/game/daily.html)."""
    if mode == "solo" and race.daily_date:
        return gettext(
            "Not ranked: a past day played later counts for no board and no streak. Its"
            " result shows in the day's “played later” list."
        )
    if mode != "daily" or not request.user.is_authenticated or daily.on_ranked_deal(race):
        return None
    return unranked_note(request.user)


def unranked_note(user):
    """Why an account's attempt at the day is on the guests' deal: it began as a guest,
    or the account is too new to rank."""
    if accounts.may_rank(user):
        return gettext("Not ranked: you began today's attempt as a guest, on the guests' deal.")
    hours = settings.HALFMOON_RANKED_MIN_AGE_H
    return gettext(
        "Not ranked: an account ranks once it is %(hours)s hours old. Until then its attempt "
        "is on the guests' deal, and it sees where it ranks among guests."
    ) % {"hours": f"{hours:g}"}


def _table_mode(race):
    modes = {Race.SOLO: "solo", Race.DAILY: "daily", Race.GHOST: "ghost", Race.EVENT: "event"}
    return modes.get(race.mode, "race")


@ensure_csrf_cookie
@require_safe
def lobby(request, error=None, deal_error=None, status=200):
    """The lobby; `error` or `deal_error` (a deal code that does not work) on top, translated.
    It gives no player key: whatever the player does next (a game, a race) does."""
    day = daily.daily_deal()
    context = {
        "events": listing.lobby_panel(),
        "daily_date": day.date,
        "daily_label": secrecy.daily_label(day.date),
        "error": error,
        "deal_error": deal_error,
    }
    return render(request, "game/lobby.html", context, status=status)


@ensure_csrf_cookie
@require_safe
def play(request, code):
    """This session's solo game on a deal (opening it may create a race: rate-limited)."""
    key = identity.player_key(request.session)
    refused = too_many_games(request, key)
    if refused:
        return refused
    try:
        deal = codes.typed_deal(code)
    except GameError as exc:
        shown = Truncator(code.upper()).chars(20)
        status = http_status(exc.code)
        return lobby(request, deal_error=DEAL_ERRORS[exc.code] % {"code": shown}, status=status)
    race = alone.solo_race(deal, key, identity.remembered_name(request.session))
    return table(request, race, "solo")


@ensure_csrf_cookie
@require_safe
def race_page(request, room):
    identity.player_key(request.session)
    race = race_or_404(room)
    return table(request, race, _table_mode(race))


@require_safe
def replay_page(request, room, player):
    """Watch a finished game: the table, move by move (the replay travels in the page)."""
    key = identity.viewer_key(request.session)
    entry = watchable_entry(room, player, key)
    context = {
        "replay": watch.replay(entry.race, entry, key),
        "may_race": ghosts.may_race(entry, key),
        "may_play_on": sandbox.may_play_on(entry, key),
    }
    return render(request, "game/replay.html", context)


@on_any_thread  # Django runs it on the loop's executor: no request closes its connection
def not_found(request, exception):
    """The 404 page: a view's own reason (translated above), never the URL resolver's."""
    reason = exception.args[0] if exception.args else None
    context = {"reason": reason if isinstance(reason, str) else None}
    return render(request, "404.html", context, status=404)
