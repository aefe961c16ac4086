"""
The daily deal explorer: the tree of a finished day's games, move by move.

From the deal, each removal players made first, how many games made it and how many
of those were won; below each, the removals made next, and so on. A game's line is its
moves as they stood at its end (an undo takes back the move before it). The tree is
built from the stored rows (game/results/move_log.py) once the day is over, never before
(the day's code and its winning lines are secret until then), and stored on the day's row
(`DailyDeal.explorer`): by the daily job (`manage.py daily_upkeep`), or on the first
request for it. It names nobody.

A node is `{"n": games, "w": won, "c": {move: node}}` (no `c` on a leaf); a move is
its slots in table order joined by `-` ("P1-R3"), a path is moves joined by `.`.
Only the ranked deal's attempts count: the guests' deal is another deal.
"""

from django.http import Http404
from django.utils.translation import gettext

from game.base import days
from game.base.errors import GameError
from game.daily import attempts
from game.engine import Game, scheme
from game.engine.cards import SLOT_INDEX
from game.models import DailyDeal, Entry, Move, Race
from game.results import move_log

SLOT_JOIN, MOVE_JOIN = "-", "."
MAX_PATH = 60
"""No game has more moves in its line than this (104 cards, two at least a move)."""


def move_key(slots):
    """A move as the tree names it: its slots in table order, whatever order they came."""
    return SLOT_JOIN.join(sorted(slots, key=SLOT_INDEX.__getitem__))


def build(day):
    """(tree, complete): the tree of `day`'s finished attempts at its ranked deal, and
    whether every attempt is finished (only a complete tree is stored)."""
    entries = Entry.objects.filter(
        race__mode=Race.DAILY, race__daily_date=day.date, race__deal_id=day.deal_id
    )
    statuses = dict(entries.values_list("pk", "status"))
    done = {pk: status for pk, status in statuses.items() if status in Entry.DONE}
    lines = _lines(entries.filter(status__in=Entry.DONE))
    root = {"n": 0, "w": 0}
    for pk, status in done.items():
        _add(root, lines.get(pk, []), int(status == Entry.WON))
    return root, len(done) == len(statuses)


def _lines(entries):
    """Each entry's line at its end, from its stored moves and undos (one query)."""
    lines = {}
    for entry_id, rows in move_log.rows_for(entries).items():
        line = lines.setdefault(entry_id, [])
        for row in rows:
            if row.kind == Move.UNDO:
                if line:
                    line.pop()
            else:
                line.append(move_key(row.slots))
    return lines


def _add(root, line, won):
    node = root
    node["n"] += 1
    node["w"] += won
    for move in line:
        node = node.setdefault("c", {}).setdefault(move, {"n": 0, "w": 0})
        node["n"] += 1
        node["w"] += won


def check_over(date):
    """GameError `daily_locked` until `date` is over: its games are secret till then."""
    if date >= days.today():
        raise GameError("daily_locked", "a day's explorer opens once the day is over")


def tree(day):
    """`day`'s tree: GameError `daily_locked` until the day is over, then built and
    stored once (an attempt still running leaves it unstored, to be built again)."""
    check_over(day.date)
    if day.explorer is None:
        attempts.finish_expired(day)
        built, complete = build(day)
        if not complete:
            return built
        DailyDeal.objects.filter(pk=day.pk, explorer__isnull=True).update(explorer=built)
        day.explorer = built
    return day.explorer


def store_finished():
    """Store the tree of every finished day that has none yet (the daily job);
    returns how many were stored."""
    stored = 0
    waiting = DailyDeal.objects.filter(date__lt=days.today(), explorer__isnull=True)
    for day in waiting.select_related("deal"):
        tree(day)
        stored += day.explorer is not None
    return stored


def walk(day, root, path):
    """Where `path` (text, as in a URL) leads: (played, node, game), `played` being
    each move with the cards it took. Http404 for a path no game of the day took."""
    moves = path.split(MOVE_JOIN, MAX_PATH) if path else []
    game = Game(day.deal.engine_deal())
    node, played = root, []
    for move in moves:
        node = node.get("c", {}).get(move)
        if node is None:
            raise Http404(gettext("No game of this day went this way."))
        played.append((move, game.remove(tuple(move.split(SLOT_JOIN))).removed))
    return played, node, game


def view(day, path, lang):
    """What the explorer page shows at `path`: the moves that led there (each a link
    back), the position as the table draws it (the rule book's arc, and its description
    for a screen reader), and every next move with its counts, most played first (then
    most won). GameError `daily_locked` for a day not over,
    Http404 for a path no game took."""
    played, node, game = walk(day, tree(day), path)
    trail, prefix = [], []
    for move, cards in played:
        prefix.append(move)
        trail.append({**_move(move, cards, lang), "path": MOVE_JOIN.join(prefix)})
    nexts = sorted(
        node.get("c", {}).items(), key=lambda item: (-item[1]["n"], -item[1]["w"], item[0])
    )
    here = MOVE_JOIN.join(prefix)
    rows = [
        {
            **_move(move, [game.stack(slot)[-1] for slot in move.split(SLOT_JOIN)], lang),
            "move": move.split(SLOT_JOIN),
            "path": f"{here}{MOVE_JOIN}{move}" if here else move,
            "games": child["n"],
            "won": child["w"],
        }
        for move, child in nexts
    ]
    return {
        "games": node["n"],
        "won": node["w"],
        "trail": trail,
        "board": _board(game, rows),
        "describe": scheme.describe(game, lang),
        "score": game.score,
        "cards_left": game.cards_left,
        "status": game.status,
        "nexts": rows,
    }


def _board(game, nexts):
    """The position as the table draws it (frontend/js/explorer.js, the replay's shape:
    each slot's count and top card) and the next moves' slots and paths, most played
    first: a card of one leads there."""
    return {
        "slots": [view._asdict() for view in scheme.scheme(game)],
        "score": game.score,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": game.status,
        "nexts": [{"slots": row["move"], "path": row["path"]} for row in nexts],
    }


def _move(move, cards, lang):
    """A move as the page shows it: its cards as the rule book prints them, its slots."""
    slots = move.split(SLOT_JOIN)
    return {
        "cards": " + ".join(scheme.card_label(card, lang) for card in cards),
        "slots": " · ".join(slot[1:] if slot.startswith("P") else slot for slot in slots),
    }
