"""
"Play on from here": an unranked sandbox game that starts from a position of a replay
or of the deal explorer.

The sandbox is a solo game (never ranked) on the position's deal whose first rows are
the moves that led there, copied (undos too): the table, undo and the replay of the
sandbox all work as in any game, from that position. Only a position the viewer may
see is played on, and only on a deal whose code is no secret any more: a solo game
shows its code, and playing on shows the cards beneath, which a replay never does.
So a replay's position is played on when the viewer may watch it and its code is
shown (game/replays/watch.py, game/deals/secrecy.py); an explorer's, once its day is
over, which the explorer already requires.
"""

from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from game.base.errors import GameError
from game.daily import explorer
from game.deals import daily, secrecy
from game.engine import Game, IllegalMove
from game.models import Entry, Move, Race
from game.race import actions
from game.replays import watch
from game.results import games, move_log


def may_play_on(entry, player_key):
    """Whether the viewer may play on from a position of `entry`'s replay."""
    race = entry.race
    return watch.visible(race, entry, player_key) and secrecy.shown_code(race) is not None


def from_replay(entry, step, player_key, name):
    """A sandbox from step `step` of `entry`'s replay (0: the deal as dealt; step n:
    after its n-th stored row). GameError when it may not be played on."""
    if not may_play_on(entry, player_key):
        raise GameError("attempt_first", "play on once this game's deal may be known")
    log = move_log.rows(entry)
    if not isinstance(step, int) or not 0 <= step <= len(log) + 1:
        raise GameError("bad_field", f"step is a whole number from 0 to {len(log) + 1}")
    rows = [(row.kind, row.slots) for row in log[:step]]
    return sandbox(entry.race.deal, rows, player_key, name)


def from_line(deal, line, player_key, name):
    """A sandbox on `deal` after the moves of `line` (an explorer's path, already read
    into lists of slots); GameError when a move is not legal there."""
    return sandbox(deal, [(Move.MOVE, slots) for slots in line], player_key, name)


def sandbox(deal, rows, player_key, name):
    """A new solo game on `deal`, running from the position after `rows`."""
    game = Game(deal.engine_deal())
    try:
        changed = [games.apply(game, kind, slots).slots for kind, slots in rows]
    except IllegalMove as exc:
        raise GameError("bad_field", f"no such position: {exc}") from exc
    if game.status == Entry.WON:
        raise GameError("bad_field", "the game is won there: nothing is left to play")
    with transaction.atomic():
        race = actions.create_race(deal, player_key, mode=Race.SOLO, name=name)
        now = timezone.now()
        Race.objects.filter(pk=race.pk).update(status=Race.RUNNING, starts_at=now, started_at=now)
        entry = race.entries.get()
        Move.objects.bulk_create(
            Move(entry=entry, seq=seq, kind=kind, slots=list(moved), at=now)
            for seq, ((kind, _), moved) in enumerate(zip(rows, changed, strict=True), start=1)
        )
        _at_position(entry, game, rows, now)
    return race


def _at_position(entry, game, rows, now):
    entry.seq, entry.score, entry.moves = len(rows), game.score, game.moves
    entry.cards_left, entry.status = game.cards_left, game.status
    entry.heights = games.heights(game)
    entry.undos = sum(kind == Move.UNDO for kind, _ in rows)
    entry.last_move_at = now if rows else None
    entry.save()


def from_explorer(date, path, player_key, name):
    """A sandbox at the explorer's position `path` on the deal of a finished day:
    GameError `daily_locked` before the day is over, Http404 for a day with no deal or
    a path no game took."""
    explorer.check_over(date)  # before day_of, which would pick today's deal
    day = daily.day_of(date)
    if day is None:
        raise Http404(gettext("There was no daily deal on %(date)s.") % {"date": date.isoformat()})
    played, _node, _game = explorer.walk(day, explorer.tree(day), path)
    moves = [move.split(explorer.SLOT_JOIN) for move, _cards in played]
    return from_line(day.deal, moves, player_key, name)
