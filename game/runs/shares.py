"""
A finished game shared: its token, and the facts its line of text, its image card
and its page show.

The facts are spoiler-free by construction: the deal's label as the table shows it
when its code is secret (never a code that is still hidden), the result, score,
moves, time, a rank, and the moon-phase line of its progress (game/runs/phases.py);
never a card. The token is random (game/models/shares.py), so the link says nothing
of the deal or the room. Only its own player shares a game, once it is over.
"""

import secrets

from django.db import IntegrityError

from game.base.errors import GameError
from game.daily import day_board
from game.deals import secrecy
from game.models import Entry, Race, SharedRun
from game.race import history
from game.results import standings
from game.runs import phases


def share(race, player_key):
    """The token of this player's game in `race`, made on first asking; GameError when
    they have no game there or it is not over."""
    entry = race.entries.filter(player_key=player_key).first()
    if entry is None:
        raise GameError("not_a_player", "you have no game in this race to share")
    if not entry.done:
        raise GameError("bad_field", "share a game once it is over")
    found = SharedRun.objects.filter(entry=entry).first()
    if found is not None:
        return found
    try:
        return SharedRun.objects.create(entry=entry, token=secrets.token_urlsafe(16))
    except IntegrityError:  # the same game shared twice at once
        return SharedRun.objects.get(entry=entry)


def find(token):
    """The shared run of `token` with its game, race and deal; None for any other text."""
    if not isinstance(token, str) or len(token) != len(secrets.token_urlsafe(16)):
        return None
    related = ("entry__race__deal", "entry__race__event_game__entry__event")
    return SharedRun.objects.select_related(*related).filter(token=token).first()


def facts(entry):
    """What a shared game shows, in the viewer's language; no card, no hidden code."""
    race = entry.race
    return {
        "name": entry.name,
        "mode": race.mode,
        "label": label(race),
        "won": entry.status == Entry.WON,
        "cards_left": entry.cards_left,
        "score": entry.score,
        "moves": entry.moves,
        "time_ms": entry.time_ms if entry.time_ms is not None else standings.time_ms(entry),
        "rank": rank(entry),
        "moons": phases.moon_line(point[3] for point in history.timeline(entry, heights=False)),
    }


def label(race):
    """The deal as the shared game names it: the day or the event, else its code when
    shown, else why it is hidden."""
    if race.mode == Race.EVENT:
        game = race.event_game
        return f"{game.entry.event.title} · {game.index + 1}"
    code = secrecy.shown_code(race)
    if race.daily_date is not None:
        return secrecy.hidden_label(race) if code is None else secrecy.daily_label(race.daily_date)
    return code or secrecy.hidden_label(race)


def rank(entry):
    """{rank, of} in its race (a race of several), {rank} on its day's board (a ranked
    daily attempt), or None."""
    race = entry.race
    if race.mode == Race.DAILY:
        return {"rank": day_board.rank_of(entry), "of": None} if entry.ranked else None
    if race.mode in (Race.RACE, Race.QUICK):
        entries = list(race.entries.all())
        place = next(n for n, e in standings.ranked(entries) if e.pk == entry.pk)
        return {"rank": place, "of": len(entries)} if len(entries) > 1 else None
    return None
