"""
HTTP: the pages that open a race, the JSON API, and /healthz.

Views only translate: they read the session's player key (game/identity.py),
call `races`, `daily` or `quickrace`, and render or serialise what comes back.
Every input is bounded (4 KiB bodies, 1-24 character names, deal codes and
room codes by their grammar), and whatever creates races (every POST, /play/)
is rate-limited per player.
"""

import asyncio
import datetime
import json
import logging
import threading
import weakref

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import DatabaseError, connection
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.text import Truncator
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods

from game import broadcast, daily, hindsight, identity, protocol, quickrace, races
from game.credit import Credit
from game.engine import BadDealCode
from game.errors import GameError, http_status
from game.models import DailyDeal, Deal, Race
from game.standings import standings

logger = logging.getLogger(__name__)
MAX_BODY = 4096
LIMITS = {"create": (30, 10), "poll": (90, 10)}
"""Requests a minute, and at once, per player and process: creating races, and
polling the quick-race queue (every second or so while waiting)."""
DEAL_ERRORS = {
    "bad_deal": gettext_lazy("“%(code)s” is not a deal code."),
    "no_such_deal": gettext_lazy("No custom deal has the code %(code)s."),
}
"""What the lobby says when /play/<code>/ cannot deal that code (the API's own
messages stay English: they are for developers)."""


def api_error(code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


def _deal(code):
    """The Deal row for a code typed by someone: GameError when there is none."""
    try:
        return Deal.for_code(code)
    except BadDealCode as exc:
        raise GameError("bad_deal", str(exc)) from None
    except Deal.DoesNotExist:
        raise GameError("no_such_deal", f"no custom deal {code.upper()}") from None


def _race(room):
    race = Race.objects.select_related("deal").filter(room=room).first()
    if race is None:
        raise Http404(gettext("There is no race %(room)s.") % {"room": room[:8]})
    return race


def _table(request, race, mode):
    context = {
        "room": race.room,
        "mode": mode,
        "deal_code": race.deal.code,
        "ws_path": race.ws_path,
    }
    return render(request, "game/table.html", context)


def _table_mode(race):
    return {Race.SOLO: "solo", Race.DAILY: "daily"}.get(race.mode, "race")


# --- pages ----------------------------------------------------------------------------


@ensure_csrf_cookie
@require_GET
def lobby(request, error=None, deal_error=None, status=200):
    """The lobby; `error` or `deal_error` (a deal code that does not work) on top, translated."""
    identity.player_key(request.session)
    day = daily.daily_deal()
    context = {
        "daily_date": day.date,
        "daily_code": day.deal.code,
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
        _throttle(key, "create")
    except GameError as exc:
        too_many = gettext("You opened too many games at once. Wait a moment, then try again.")
        return lobby(request, error=too_many, status=http_status(exc.code))
    try:
        deal = _deal(code)
    except GameError as exc:
        shown = Truncator(code.upper()).chars(20)
        status = http_status(exc.code)
        return lobby(request, deal_error=DEAL_ERRORS[exc.code] % {"code": shown}, status=status)
    race = races.solo_race(deal, key, identity.remembered_name(request.session))
    return _table(request, race, "solo")


@ensure_csrf_cookie
@require_GET
def race_page(request, room):
    identity.player_key(request.session)
    race = _race(room)
    return _table(request, race, _table_mode(race))


@ensure_csrf_cookie
@require_GET
def daily_today(request):
    key = identity.player_key(request.session)
    race = races.daily_race(daily.daily_deal(), key, identity.remembered_name(request.session))
    return _table(request, race, "daily")


@require_GET
def leaderboard(request, date):
    context = _leaderboard(_date(date))
    return render(request, "game/leaderboard.html", context)


def _date(text):
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise Http404(gettext("A date looks like 2026-11-29.")) from None


def _leaderboard(date):
    day = DailyDeal.objects.select_related("deal").filter(date=date).first()
    if day is None and date == daily.today():
        day = daily.daily_deal(date)
    if day is None:
        raise Http404(gettext("There was no daily deal on %(date)s.") % {"date": date.isoformat()})
    return {"date": date, "deal_code": day.deal.code, "entries": standings(daily.results(day))}


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


_buckets = {}
_buckets_lock = threading.Lock()


def _throttle(player_key, limit):
    """One request against the player's `LIMITS[limit]` bucket; 429 when it is empty."""
    per_minute, burst = LIMITS[limit]
    with _buckets_lock:
        if len(_buckets) > 10_000:
            _buckets.clear()
        bucket = _buckets.setdefault(
            (limit, player_key), Credit(rate=per_minute / 60, burst=burst)
        )
        if not bucket.spend():
            raise GameError("rate_limited", "too many requests; wait a little")


def _created(race, status=201):
    links = {"url": race.get_absolute_url(), "ws": race.ws_path}
    return JsonResponse({"room": race.room, **links}, status=status)


@require_http_methods(["POST"])
@api
def api_races(request, body):
    """Create a race: {deal: code | "random" | "daily", solo?: bool, name?}."""
    key = identity.player_key(request.session)
    _throttle(key, "create")
    name = _name(request, body)
    deal_spec, solo = body.get("deal", "random"), body.get("solo", False)
    if not isinstance(deal_spec, str) or not isinstance(solo, bool):
        raise GameError("bad_field", "deal is a code, 'random' or 'daily'; solo is a boolean")
    if deal_spec.lower() == "daily":
        day = daily.daily_deal()
        if solo:
            return _created(races.daily_race(day, key, name))
        deal = day.deal
    elif deal_spec.lower() == "random":
        deal = races.random_deal()
    else:
        deal = _deal(deal_spec)
    if solo:
        return _created(races.solo_race(deal, key, name))
    explicit = name if body.get("name") is not None else None
    return _created(races.create_race(deal, key, name=explicit))


@require_GET
@api
def api_race(request, body, room):
    """The race as this session may see it: state, players, standings (no hidden card)."""
    out = races.sync(room, identity.player_key(request.session))
    broadcast.publish_outcome(room, out)
    return JsonResponse(out.reply[0])


@require_GET
@api
def api_hindsight(request, body, room):
    """After your game is over: was the deal winnable, and how long did your line keep it so.

    202 {"status": "computing"} while the solver pool works on it: poll again (the
    polling limit applies, since the answer is computed once however often asked)."""
    key = identity.player_key(request.session)
    _throttle(key, "poll")
    answer = hindsight.hindsight(room, key)
    if answer is None:
        return JsonResponse({"status": "computing"}, status=202)
    return JsonResponse(answer)


@require_GET
@api
def api_daily(request, body):
    day = daily.daily_deal()
    iso = day.date.isoformat()
    return JsonResponse(
        {
            "date": iso,
            "deal": day.deal.code,
            "url": "/daily/",
            "leaderboard": f"/api/daily/{iso}/leaderboard/",
        }
    )


@require_GET
@api
def api_leaderboard(request, body, date):
    context = _leaderboard(_date(date))
    return JsonResponse({**context, "date": context["date"].isoformat()})


@require_http_methods(["POST", "DELETE"])
@api
def api_quick(request, body):
    """Wait in the quick-race queue; poll every second or two until placed."""
    key = identity.player_key(request.session)
    if request.method == "DELETE":
        quickrace.leave(key)
        return JsonResponse({"waiting": 0})
    _throttle(key, "poll")
    placed = quickrace.poll(key, _name(request, body))
    if "room" in placed:
        return _created(_race(placed["room"]), status=200)
    return JsonResponse(placed, status=202)


# --- health ---------------------------------------------------------------------------

LAYER_TIMEOUT_S = 2.0


@never_cache
@require_GET
async def healthz(request):
    """
    200 only when this process can run a query and pass a message through the
    channel layer, so a replica that lost its database or Redis leaves rotation;
    503 names what failed.
    """
    checks = {
        "database": await sync_to_async(_database_ok)(),
        "channel_layer": await _layer_ok(),
    }
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )


def _database_ok():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: database check failed")
        return "unavailable"
    return "ok"


_probe_channels = weakref.WeakKeyDictionary()
"""One probe channel per layer and event loop (daphne runs one loop): a pub/sub
layer keeps every channel it has received on subscribed, so a new channel per
check would leak, and its subscriptions belong to the loop that made them."""


async def _layer_ok():
    layer = get_channel_layer()
    probes = _probe_channels.setdefault(asyncio.get_running_loop(), {})
    try:
        channel = probes.get(id(layer)) or await layer.new_channel("healthz.")
        probes[id(layer)] = channel
        await layer.send(channel, {"type": "healthz"})
        async with asyncio.timeout(LAYER_TIMEOUT_S):
            await layer.receive(channel)
    except Exception:
        # The pub/sub layer drops a channel whose receive was cancelled, and one whose
        # unsubscribe failed (Redis down) is never subscribed again: start afresh.
        probes.pop(id(layer), None)
        logger.exception("healthz: channel layer check failed")
        return "unavailable"
    return "ok"
