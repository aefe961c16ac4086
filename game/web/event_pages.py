"""
The events' pages: /events/ (upcoming, running, past), /events/<id>/ (the event, its
live standings, joining; once over its final standings, replays and codes), and
/events/<id>/play/, which sends a player to the game they play now (the next deal
once the last is over). Views only translate: game/events/ decides. A running event's
standings on its page are at most a second old (game/events/shared_standings.py).
"""

import functools

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_safe

from game.base import clients, limits
from game.base.errors import GameError, http_status
from game.events import listing, play, shared_standings, standings
from game.players import identity
from game.race import protocol

MESSAGES = {
    "event_over": lambda: gettext("This event is over: its standings are final."),
    "event_not_started": lambda: gettext("This event has not started yet."),
    "event_needs_account": lambda: gettext("A rated event is played with an account: log in."),
    "not_a_player": lambda: gettext("Join the event to play it."),
    "bad_name": lambda: gettext("A name is 1 to 24 letters, digits or signs."),
    "rate_limited": lambda: gettext("Too many requests at once. Wait a moment, then try again."),
}
"""What an event's page says for a refusal."""


def event_or_404(event_id):
    try:
        return play.event(event_id)
    except GameError:
        raise Http404(gettext("There is no event %(id)s.") % {"id": event_id}) from None


@require_safe
def events(request):
    return render(request, "game/events.html", listing.lists())


@ensure_csrf_cookie
@require_http_methods(["GET", "HEAD", "POST"])
def event_page(request, event_id):
    """The event; a POST joins it (with the name a guest gives) and, if it runs, plays."""
    event = event_or_404(event_id)
    if request.method != "POST":
        return _page(request, event)
    key = identity.player_key(request.session)
    try:
        limits.spend(request, "create", key)  # a join makes an entry and its games
        name = protocol.clean_name(
            request.POST.get("name") or identity.remembered_name(request.session)
        )
        address_tag = clients.tag(clients.request_address(request))
        guest = functools.partial(limits.spend, request, "event_guest")
        play.join(event, key, name, address_tag, admitting_a_guest=guest)
        identity.remember_name(request.session, name)
    except GameError as exc:
        return _page(request, event, error=exc.code, status=http_status(exc.code))
    if listing.state(event) == "running":
        return redirect("game:event-play", event_id=event.pk)
    return redirect(event)


@require_safe
def event_play(request, event_id):
    """The player's game now, or the event's page when there is none to play."""
    event = event_or_404(event_id)
    key = identity.player_key(request.session)
    try:
        race = play.game_to_play(event, key)
    except GameError as exc:
        return _page(request, event, error=exc.code, status=http_status(exc.code))
    return redirect(race) if race is not None else redirect(event)


def _page(request, event, error=None, status=200):
    entry = play.entry_of(event, identity.viewer_key(request.session))
    state = listing.state(event)
    context = {
        "event": event,
        "state": state,
        "entry": entry,
        "deals": listing.codes(event),
        "error": MESSAGES[error]() if error else None,
        "name": request.session.get(identity.NAME_KEY, ""),
        "final": listing.final(event, entry and entry.pk) if state == "over" else None,
        "rows": shared_standings.top_rows(event.pk) if state != "over" else None,
    }
    shown = context["final"] or [{"list": row[5]} for row in context["rows"] or []]
    context["mixed"] = any(row["list"] == standings.RANKED for row in shown)
    return render(request, "game/event.html", context, status=status)
