"""
The JSON API under /api/: create, read and restart races, replays and their analysis,
the daily deal and its leaderboard and ghosts, the quick-race queue.

Every input is bounded (4 KiB bodies, each declared in game/web/bodies.py, 1-24
character names, deal codes and room codes by their grammar), and whatever creates
races (every POST) or polls is rate-limited per player and per client address
(game/base/limits.py). Answers and their error messages are English (the client has
its own text for each code); a deal code reaches an answer only through
game/deals/secrecy.py. The lookups that refuse are the pages' own (game/web/pages.py,
game/web/daily_pages.py), so a page and its answer refuse alike.
"""

import functools

from django.http import Http404, JsonResponse
from django.utils import translation
from django.views.decorators.http import require_http_methods, require_safe

from game.base import days, inputs, limits
from game.base.errors import GameError, http_status
from game.base.inputs import date_or_404, page_number
from game.daily import ghosts
from game.deals import codes, daily, secrecy
from game.lobby import alone, quick, recorded
from game.players import identity
from game.race import actions, protocol
from game.realtime import broadcast
from game.replays import analysis
from game.web import bodies
from game.web.daily_pages import leaderboard_context
from game.web.pages import race_or_404, watchable_replay


def api_error(code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


def api(view=None, *, body=bodies.Empty):
    """
    JSON in (a POST's `body`, decoded into its declared Struct; None for other
    methods), JSON out; GameError and Http404 become error objects. Their messages
    are English whatever the browser's language: the client shows its own text for
    each code (frontend/js/errors.js). `@api` or `@api(body=bodies.NewRace)`.
    """
    if view is None:
        return functools.partial(api, body=body)
    reader = inputs.Reader(body, "a request body", body.refusals)

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            with translation.override("en"):
                read = reader.read(request.body or b"{}") if request.method == "POST" else None
                return view(request, read, *args, **kwargs)
        except GameError as exc:
            return api_error(exc.code, exc.message)
        except Http404 as exc:
            return api_error("not_found", str(exc))

    wrapped.body = body  # what docs/protocol.md's HTTP API table is checked against
    return wrapped


def _name(request, body):
    """The name in the body (then remembered), or the one this session used last."""
    if body.name is None:
        return identity.remembered_name(request.session)
    name = protocol.clean_name(body.name)
    identity.remember_name(request.session, name)
    return name


def _created(race, status=201, url=None):
    links = {"url": url or race.get_absolute_url(), "ws": race.ws_path}
    return JsonResponse({"room": race.room, **links}, status=status)


@require_http_methods(["POST"])
@api(body=bodies.NewRace)
def api_races(request, body):
    """Create a race: {deal: code | "random" | "daily", solo?: bool, name?}.

    "daily" with solo is the player's one daily attempt; a race on it is refused
    (`daily_locked`). A typed code is a game on that deal, whatever deal it is: knowing
    the code is knowing the deal. A random deal's code stays hidden until the race ends."""
    key = identity.player_key(request.session)
    limits.spend(request, "create", key)
    name = _name(request, body)
    deal_spec, solo = body.deal, body.solo
    hidden = deal_spec.lower() == "random"
    if deal_spec.lower() == "daily":
        if not solo:
            raise GameError("daily_locked", "the daily deal is played alone, once: solo true")
        return _created(alone.daily_race(daily.daily_deal(), key, name))
    deal = codes.random_deal() if hidden else codes.typed_deal(deal_spec)
    if solo:
        return _created(alone.solo_race(deal, key, name))
    explicit = name if body.name is not None else None
    return _created(actions.create_race(deal, key, name=explicit, deal_hidden=hidden))


@require_safe
@api
def api_race(request, body, room):
    """The race as this session may see it: state, players, standings (no hidden card)."""
    out = actions.sync(room, identity.viewer_key(request.session))
    broadcast.publish_outcome(room, out)
    return JsonResponse(out.reply[0])


@require_http_methods(["POST"])
@api
def api_restart(request, body, room):
    """Restart this player's solo game: a new game on the same deal from the start,
    201 {room, url, ws}; the old one ends given up and stays in the history. A race,
    a daily attempt or a ghost race is refused (`not_solo`). Counted as creating a race."""
    key = identity.player_key(request.session)
    limits.spend(request, "create", key)
    out = actions.restart(room, key)
    broadcast.publish_outcome(room, out)
    race = race_or_404(out.reply[0]["room"])
    return _created(race, url=secrecy.game_url(race))


@require_safe
@api
def api_analysis(request, body, room, player):
    """The after-game analysis of a replay this session may watch, once its race is over.

    Asked only by a player who turned the setting on (the rule book promises no
    solver). 202 {"status": "computing"} while the solver pool works on it: poll
    again (the polling limit applies; the answer is computed once however often
    asked)."""
    key = identity.player_key(request.session)
    limits.spend(request, "poll", key)
    answer = analysis.analysis_of(room, player, key)
    if answer is None:
        return JsonResponse({"status": "computing"}, status=202)
    return JsonResponse(answer)


@require_safe
@api
def api_replay(request, body, room, player):
    """A finished game, move by move, as this session may watch it (else 404 not_found)."""
    return JsonResponse(watchable_replay(room, player, identity.viewer_key(request.session)))


@require_safe
@api
def api_daily(request, body):
    """Today's deal: its date and links, never its code (that waits for the day's end)."""
    day = daily.daily_deal()
    iso = day.date.isoformat()
    return JsonResponse(
        {
            "date": iso,
            "next_deal_at": days.next_deal_ms(),
            "url": "/daily/",
            "leaderboard": f"/api/daily/{iso}/leaderboard/",
        }
    )


@require_safe
@api
def api_leaderboard(request, body, date):
    context = leaderboard_context(
        date_or_404(date), identity.viewer_key(request.session), page_number(request)
    )
    shown = {key: context[key] for key in ("deal_code", "entries", "you", "page", "has_next")}
    return JsonResponse({**shown, "date": date, "label": str(context["label"])})


@require_http_methods(["GET", "HEAD", "POST"])
@api(body=bodies.DailyGhost)
def api_daily_ghost(request, body, date):
    """Race a recorded game on a day's deal: GET what there is to race (the leader's
    result, your best, whether you may now); POST {of: "leader" | "best", name?}
    creates the ghost race (201 {room, url, ws}) or finds your unfinished one."""
    day = daily.day_of(date_or_404(date))
    if day is None:
        raise Http404(f"there was no daily deal on {date[:10]}")
    if request.method != "POST":
        return JsonResponse(ghosts.offer(day, identity.viewer_key(request.session)))
    key = identity.player_key(request.session)
    limits.spend(request, "create", key)
    return _created(ghosts.race(day, body.of, key, _name(request, body)))


@require_http_methods(["POST", "DELETE"])
@api(body=bodies.Quick)
def api_quick(request, body):
    """Wait in the quick-race queue, casual or {rated: true} (accounts only); poll every
    second or two until placed. A player alone there long enough is told so (`alone`:
    a recorded game may be raced)."""
    key = identity.player_key(request.session)
    if request.method == "DELETE":
        quick.leave(key)
        return JsonResponse({"waiting": 0})
    limits.spend(request, "poll", key)
    placed = quick.poll(key, _name(request, body), rated=body.rated)
    if "room" in placed:
        return _created(race_or_404(placed["room"]), status=200)
    if recorded.due(key, placed["waiting"]):
        placed = {**placed, "alone": True}
    return JsonResponse(placed, status=202)


@require_http_methods(["GET", "HEAD", "POST"])
@api(body=bodies.QuickGhost)
def api_quick_ghost(request, body):
    """A quick racer alone in the queue races a recorded game meanwhile, keeping their
    seat: GET {ghost: the game offered | null}; POST {ghost: its id, name?} creates the
    ghost race (201 {room, url, ws}) or finds the unfinished one."""
    key = identity.player_key(request.session)
    if request.method in ("GET", "HEAD"):
        limits.spend(request, "poll", key)
        return JsonResponse({"ghost": recorded.offer(key)})
    limits.spend(request, "create", key)
    return _created(recorded.race(key, body.ghost, _name(request, body)))
