"""
A finished game beyond its table: sharing it, the shared page with its image card,
racing any run one may see as a ghost, and "Play on from here".

These views only translate: the rules are game/runs/'s (who may race or play on
what, the spoiler-free facts). A token, room or step that finds nothing is the site's
404 page with its reason, never a 500; a refusal sends the player back to the page
that explains it. Whatever creates a game is rate-limited like any other
(game/web/pages.py `too_many_games`).
"""

from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from game.base.errors import GameError
from game.base.inputs import date_or_404
from game.deals import secrecy
from game.players import identity
from game.replays import watch
from game.runs import ghosts, sandbox, shares
from game.web.api import api
from game.web.pages import race_or_404, too_many_games, watchable_entry

CARD_CACHE_S = 600
"""How long a rendered image card is kept (its rank may still change on its day)."""


@require_POST
@api
def api_share(request, body, room):
    """Share this player's finished game in `room`: {url, image, text}, the text in the
    player's language (the API's own errors stay English)."""
    run = shares.share(race_or_404(room), identity.viewer_key(request.session))
    with translation.override(request.LANGUAGE_CODE):
        text = share_text(shares.facts(run.entry))
    url = request.build_absolute_uri(reverse("game:shared", args=[run.token]))
    return JsonResponse({"url": url, "image": f"{url}card.svg", "text": text})


def share_text(facts):
    return render_to_string("game/share_text.txt", {"facts": facts}).strip()


def shared_or_404(token):
    run = shares.find(token)
    if run is None:
        raise Http404(gettext("No shared game has this link. Check that it was copied whole."))
    return run


@require_safe
def shared_page(request, token):
    """A shared game: its facts and card, a ghost race against it (once the viewer may
    play its deal) and, once its deal is no secret, its replay."""
    run = shared_or_404(token)
    entry, key = run.entry, identity.viewer_key(request.session)
    facts = shares.facts(entry)
    page = request.build_absolute_uri(reverse("game:shared", args=[token]))
    context = {
        "token": token,
        "facts": facts,
        "text": share_text(facts),
        "page_url": page,
        "image_url": f"{page}card.svg",
        "may_race": ghosts.may_race(entry, key),
        "today": entry.race.daily_date is not None and secrecy.shown_code(entry.race) is None,
        "replay_url": watch.url(entry) if sandbox.may_play_on(entry, key) else None,
    }
    return render(request, "game/shared.html", context)


@require_safe
def shared_card(request, token):
    """The shared game's image card (SVG), rendered once a while per language."""
    run = shared_or_404(token)
    cached = f"share-card:{token}:{translation.get_language()}"
    svg = cache.get(cached)
    if svg is None:
        svg = render_to_string("game/share_card.svg", {"facts": shares.facts(run.entry)})
        cache.set(cached, svg, CARD_CACHE_S)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = f"public, max-age={CARD_CACHE_S}"
    return response


@require_POST
def shared_race(request, token):
    """Race the shared game's ghost; back to its page when it is not to be raced yet."""
    run = shared_or_404(token)
    return _race_against(request, run.entry, reverse("game:shared", args=[token]))


@require_POST
def replay_race(request, room, player):
    """Race the ghost of a game whose replay the viewer may watch."""
    entry = _watchable(request, room, player)
    return _race_against(request, entry, watch.url(entry))


def _race_against(request, entry, back):
    key = identity.player_key(request.session)
    refused = too_many_games(request, key)
    if refused:
        return refused
    try:
        race = ghosts.race(entry, key, identity.remembered_name(request.session))
    except GameError:
        return redirect(back)
    return redirect(race.get_absolute_url())


@require_POST
def replay_play_on(request, room, player):
    """A sandbox game from the replay's position `step` (a form field)."""
    entry = _watchable(request, room, player)
    step = request.POST.get("step", "")
    if not step.isdigit() or len(step) > 4:
        raise Http404(gettext("This replay has no such move."))
    return _sandbox(request, lambda key, name: sandbox.from_replay(entry, int(step), key, name))


@require_POST
def explorer_play_on(request, date):
    """A sandbox game from the explorer's position `line` (a form field)."""
    date = date_or_404(date)
    line = request.POST.get("line", "")
    return _sandbox(request, lambda key, name: sandbox.from_explorer(date, line, key, name))


def _sandbox(request, make):
    key = identity.player_key(request.session)
    refused = too_many_games(request, key)
    if refused:
        return refused
    try:
        race = make(key, identity.remembered_name(request.session))
    except GameError as exc:
        raise Http404(gettext("There is no game to play on from there.")) from exc
    return redirect(race.get_absolute_url())


def _watchable(request, room, player):
    return watchable_entry(room, player, identity.viewer_key(request.session))
