"""
HTTP: the pages that open a race, the JSON API, and /healthz.

Views only translate: they read the session's player key (game/identity.py),
call `races`, `daily` or `quickrace`, and render or serialise what comes back.
Every input is bounded (4 KiB bodies, 1-24 character names, deal codes and
room codes by their grammar), and whatever creates races (every POST, /play/,
/daily/) is rate-limited per player and per client address (game/limits.py).
A deal code reaches a page or an answer only through game/secrecy.py.
"""

import datetime
import json
import logging

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.text import Truncator
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods

from game import (
    alone_races,
    broadcast,
    calendar,
    daily,
    ghosts,
    identity,
    leaderboards,
    limits,
    postgame,
    protocol,
    quickrace,
    races,
    replays,
    secrecy,
)
from game.errors import GameError, http_status
from game.models import Entry, Race

logger = logging.getLogger(__name__)
MAX_BODY = 4096
DEAL_ERRORS = {
    "bad_deal": gettext_lazy("“%(code)s” is not a deal code."),
    "no_such_deal": gettext_lazy("No custom deal has the code %(code)s."),
    "daily_locked": gettext_lazy(
        "This is today's daily deal: play it once from the Daily deal page. "
        "It opens for practice when the day is over."
    ),
}
"""What the lobby says when /play/<code>/ cannot deal that code (the API's own
messages stay English: they are for developers)."""


def api_error(code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


def _deal(code):
    """The Deal row for a code typed by someone: GameError when there is none, or
    when it is today's daily deal (`daily_locked` until the day is over)."""
    deal = calendar.typed_deal(code)
    secrecy.refuse_today(deal)
    return deal


def _race(room):
    race = Race.objects.select_related("deal").filter(room=room).first()
    if race is None:
        raise Http404(gettext("There is no race %(room)s.") % {"room": room[:8]})
    return race


def _table(request, race, mode):
    """The table; the deal's code only when a player may see it (game/secrecy.py)."""
    code = secrecy.shown_code(race)
    if code is None:
        label = secrecy.hidden_label(race)
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
    }
    return render(request, "game/table.html", context)


def _table_mode(race):
    return {Race.SOLO: "solo", Race.DAILY: "daily", Race.GHOST: "ghost"}.get(race.mode, "race")


# --- pages ----------------------------------------------------------------------------


@ensure_csrf_cookie
@require_GET
def lobby(request, error=None, deal_error=None, status=200):
    """The lobby; `error` or `deal_error` (a deal code that does not work) on top, translated."""
    identity.player_key(request.session)
    day = daily.daily_deal()
    context = {
        "daily_date": day.date,
        "daily_label": secrecy.daily_label(day.date),
        "error": error,
        "deal_error": deal_error,
    }
    return render(request, "game/lobby.html", context, status=status)


@ensure_csrf_cookie
@require_GET
def play(request, code):
    """This session's solo game on a deal (opening it may create a race: rate-limited)."""
    key = identity.player_key(request.session)
    try:
        limits.spend(request, "create", key)
    except GameError as exc:
        too_many = gettext("You opened too many games at once. Wait a moment, then try again.")
        return lobby(request, error=too_many, status=http_status(exc.code))
    try:
        deal = _deal(code)
    except GameError as exc:
        shown = Truncator(code.upper()).chars(20)
        status = http_status(exc.code)
        return lobby(request, deal_error=DEAL_ERRORS[exc.code] % {"code": shown}, status=status)
    race = alone_races.solo_race(deal, key, identity.remembered_name(request.session))
    return _table(request, race, "solo")


@ensure_csrf_cookie
@require_GET
def race_page(request, room):
    identity.player_key(request.session)
    race = _race(room)
    return _table(request, race, _table_mode(race))


@ensure_csrf_cookie
@require_http_methods(["GET", "POST"])
def daily_today(request):
    """Today's deal: this player's one attempt. A guest who has not started it yet
    first picks the name the leaderboard shows (their last one, prefilled)."""
    key = identity.player_key(request.session)
    try:
        limits.spend(request, "create", key)
    except GameError as exc:
        too_many = gettext("You opened too many games at once. Wait a moment, then try again.")
        return lobby(request, error=too_many, status=http_status(exc.code))
    day = daily.daily_deal()
    guest = not request.user.is_authenticated
    if request.method == "POST" and guest:
        try:
            name = protocol.clean_name(request.POST.get("name"))
        except GameError:
            return _daily_page(request, day, name_error=True, status=400)
        identity.remember_name(request.session, name)
        return redirect(alone_races.daily_race(day, key, name).get_absolute_url())
    if guest and not alone_races.daily_attempt(day, key):
        return _daily_page(request, day)
    race = alone_races.daily_race(day, key, identity.remembered_name(request.session))
    return _table(request, race, "daily")


def _daily_page(request, day, name_error=False, status=200):
    context = {
        "label": secrecy.daily_label(day.date),
        "date": day.date,
        "next_deal_ms": daily.next_deal_ms(),
        "name": request.session.get(identity.NAME_KEY, ""),
        "name_error": name_error,
    }
    return render(request, "game/daily.html", context, status=status)


@require_GET
def leaderboard(request, date):
    context = _leaderboard(_date(date), identity.player_key(request.session), page_number(request))
    return render(request, "game/leaderboard.html", context)


def _date(text):
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise Http404(gettext("A date looks like 2026-11-29.")) from None


def _leaderboard(date, player_key, page=1):
    day = daily.day_of(date)
    if day is None:
        raise Http404(gettext("There was no daily deal on %(date)s.") % {"date": date.isoformat()})
    board = leaderboards.daily_board(day, player_key, page)
    today = daily.today()
    rows = board["entries"] + ([board["you"]] if board["you"] and not board["you_on_page"] else [])
    _link_replays(rows, player_key)
    return {
        "date": date,
        "deal_code": secrecy.daily_code(day),
        "label": secrecy.daily_label(date),
        "previous_day": date - datetime.timedelta(days=1),
        "next_day": date + datetime.timedelta(days=1) if date < today else None,
        "rows": rows,
        **board,
    }


def page_number(request):
    page = request.GET.get("page", "1")
    return int(page) if page.isdigit() and 0 < int(page) < 10_000 else 1


def _link_replays(rows, viewer):
    """Each row's replay link, where the viewer may watch it."""
    entries = Entry.objects.select_related("race").filter(pk__in=[row["player"] for row in rows])
    shown = {e.pk: replays.url(e) for e in entries if replays.visible(e.race, e, viewer)}
    for row in rows:
        row["replay"] = shown.get(row["player"])


@require_GET
def replay_page(request, room, player):
    """Watch a finished game: the table, move by move (the replay travels in the page)."""
    context = _replay(room, player, identity.player_key(request.session))
    return render(request, "game/replay.html", {"replay": context})


def _replay(room, player, player_key):
    """The replay the viewer may watch; the same Http404 whether it is missing or not
    visible yet, so a hidden game does not even show that it exists."""
    entry = replays.find(room, player)
    if entry is None or not replays.visible(entry.race, entry, player_key):
        reason = gettext(
            "There is no replay of player %(player)s in %(room)s to watch. A game can be"
            " watched once it is over; by others, a daily deal once its day is over and a"
            " race once it has finished."
        )
        raise Http404(reason % {"player": player, "room": room[:8]})
    return replays.replay(entry.race, entry, player_key)


def not_found(request, exception):
    """The 404 page: a view's own reason (translated above), never the URL resolver's."""
    reason = exception.args[0] if exception.args else None
    context = {"reason": reason if isinstance(reason, str) else None}
    return render(request, "404.html", context, status=404)


# --- JSON API -------------------------------------------------------------------------


def api(view):
    """
    JSON in (≤ 4 KiB object), JSON out; GameError and Http404 become error objects.
    Their messages are English whatever the browser's language: the client shows
    its own text for each code (frontend/js/errors.js).
    """

    def wrapped(request, *args, **kwargs):
        try:
            with translation.override("en"):
                body = _body(request) if request.method == "POST" else {}
                return view(request, body, *args, **kwargs)
        except GameError as exc:
            return api_error(exc.code, exc.message)
        except Http404 as exc:
            return api_error("not_found", str(exc))

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _body(request):
    if len(request.body) > MAX_BODY:
        raise GameError("too_large", f"a request body is at most {MAX_BODY} bytes")
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError):  # RecursionError: nesting a few thousand deep
        raise GameError("bad_json", "the body is one JSON object") from None
    if not isinstance(body, dict):
        raise GameError("bad_json", "the body is one JSON object")
    return body


def _name(request, body):
    """The name in the body (then remembered), or the one this session used last."""
    if body.get("name") is None:
        return identity.remembered_name(request.session)
    name = protocol.clean_name(body["name"])
    identity.remember_name(request.session, name)
    return name


def _created(race, status=201):
    links = {"url": race.get_absolute_url(), "ws": race.ws_path}
    return JsonResponse({"room": race.room, **links}, status=status)


@require_http_methods(["POST"])
@api
def api_races(request, body):
    """Create a race: {deal: code | "random" | "daily", solo?: bool, name?}.

    "daily" with solo is the player's one daily attempt; a race on today's deal is
    refused (`daily_locked`). A random deal's code stays hidden until the race ends."""
    key = identity.player_key(request.session)
    limits.spend(request, "create", key)
    name = _name(request, body)
    deal_spec, solo = body.get("deal", "random"), body.get("solo", False)
    if not isinstance(deal_spec, str) or not isinstance(solo, bool):
        raise GameError("bad_field", "deal is a code, 'random' or 'daily'; solo is a boolean")
    hidden = deal_spec.lower() == "random"
    if deal_spec.lower() == "daily":
        day = daily.daily_deal()
        if not solo:
            secrecy.refuse_today(day.deal)
        return _created(alone_races.daily_race(day, key, name))
    deal = races.random_deal() if hidden else _deal(deal_spec)
    if solo:
        return _created(alone_races.solo_race(deal, key, name))
    explicit = name if body.get("name") is not None else None
    return _created(races.create_race(deal, key, name=explicit, deal_hidden=hidden))


@require_GET
@api
def api_race(request, body, room):
    """The race as this session may see it: state, players, standings (no hidden card)."""
    out = races.sync(room, identity.player_key(request.session))
    broadcast.publish_outcome(room, out)
    return JsonResponse(out.reply[0])


@require_GET
@api
def api_analysis(request, body, room, player):
    """The after-game analysis of a replay this session may watch, once its race is over.

    Asked only by a player who turned the setting on (the rule book promises no
    solver). 202 {"status": "computing"} while the solver pool works on it: poll
    again (the polling limit applies; the answer is computed once however often
    asked)."""
    key = identity.player_key(request.session)
    limits.spend(request, "poll", key)
    answer = postgame.analysis_of(room, player, key)
    if answer is None:
        return JsonResponse({"status": "computing"}, status=202)
    return JsonResponse(answer)


@require_GET
@api
def api_replay(request, body, room, player):
    """A finished game, move by move, as this session may watch it (else 404 not_found)."""
    return JsonResponse(_replay(room, player, identity.player_key(request.session)))


@require_GET
@api
def api_daily(request, body):
    """Today's deal: its date and links, never its code (that waits for the day's end)."""
    day = daily.daily_deal()
    iso = day.date.isoformat()
    return JsonResponse(
        {
            "date": iso,
            "next_deal_at": daily.next_deal_ms(),
            "url": "/daily/",
            "leaderboard": f"/api/daily/{iso}/leaderboard/",
        }
    )


@require_GET
@api
def api_leaderboard(request, body, date):
    context = _leaderboard(_date(date), identity.player_key(request.session), page_number(request))
    shown = {key: context[key] for key in ("deal_code", "entries", "you", "page", "has_next")}
    return JsonResponse({**shown, "date": date, "label": str(context["label"])})


@require_http_methods(["GET", "POST"])
@api
def api_daily_ghost(request, body, date):
    """Race a recorded game on a day's deal: GET what there is to race (the leader's
    result, your best, whether you may now); POST {of: "leader" | "best", name?}
    creates the ghost race (201 {room, url, ws}) or finds your unfinished one."""
    day = daily.day_of(_date(date))
    if day is None:
        raise Http404(f"there was no daily deal on {date[:10]}")
    key = identity.player_key(request.session)
    if request.method == "GET":
        return JsonResponse(ghosts.offer(day, key))
    limits.spend(request, "create", key)
    return _created(ghosts.race(day, body.get("of"), key, _name(request, body)))


@require_http_methods(["POST", "DELETE"])
@api
def api_quick(request, body):
    """Wait in the quick-race queue; poll every second or two until placed."""
    key = identity.player_key(request.session)
    if request.method == "DELETE":
        quickrace.leave(key)
        return JsonResponse({"waiting": 0})
    limits.spend(request, "poll", key)
    placed = quickrace.poll(key, _name(request, body))
    if "room" in placed:
        return _created(_race(placed["room"]), status=200)
    return JsonResponse(placed, status=202)
