"""
Replays: a finished game rebuilt move by move, and who may watch it.

Nothing new is stored for a replay. The deal and the entry's `Move` rows (undos
included, each with its time) are replayed through the engine, exactly as
`boards.replay` rebuilds a game in play, and the position after every row is
recorded: the replay can only ever show what the game really was, and its last
step is the entry as stored (`tests/server/test_replays.py` holds it to that).

A step shows each slot's count and top card, never a card beneath a top: the
game is over, so its playable cards are no secret from whoever may watch it,
and `visible` decides who that is. The deal's code is another matter: its
player watches a game at once, while the code may still be secret (today's
daily deal, a hidden deal whose race runs on), so it is shown as
`secrecy.shown_code` says. The race around the game is given as every
player's score, cards left and pile heights over time, never a card.
"""

from django.urls import reverse

from game import boards, secrecy
from game.engine import Game
from game.engine.scheme import scheme
from game.models import Entry, Move, Race
from game.standings import ranked

DEAL, END, LINE = "deal", "end", "line"
"""The kinds of the first step (the table as dealt), of a last step that is no
move (the game ended by a resignation, the time limit or a count-out), and of a
step of a winning line the after-game analysis shows (a move no one played)."""


def visible(race, entry, player_key):
    """May the holder of `player_key` watch `entry`'s game in `race`?

    Only a game that is over; its player at once; anyone else once the deal
    may be known to everyone (a daily deal after its day, a hidden deal after
    its race) and, in a race, once the race is over: a finished racer's line must
    not help those still racing."""
    if not (entry.status in Entry.DONE or race.status == Race.FINISHED):
        return False
    if player_key and entry.player_key == player_key:
        return True
    racing = race.mode in (Race.RACE, Race.QUICK) and race.status != Race.FINISHED
    return not racing and secrecy.shown_code(race) is not None


def url(entry):
    return reverse("game:replay", args=[entry.race.room, entry.pk])


def find(room, player):
    """The entry `player` of the race `room`, with its race and deal; None if there is none."""
    return Entry.objects.select_related("race__deal").filter(race__room=room, pk=player).first()


def replay(race, entry, player_key):
    """The replay of `entry` as the viewer may see it: its steps and the race's players."""
    logs = _logs(race)
    entries = list(race.entries.all())
    for other in entries:
        other.race = race  # ranked() reads the race's start: no query per entry
    others = []
    for _rank, other in ranked(entries):
        steps = entry_steps(race, other, logs.get(other.pk, []))
        others.append(_racer(other, steps, player_key))
    steps = entry_steps(race, entry, logs.get(entry.pk, []), tables=True)
    ends = [step["at_ms"] for racer in others for step in racer["steps"]]
    code = secrecy.shown_code(race)  # None: a player watching their own game of today
    return {
        "room": race.room,
        "deal": code,
        "label": None if code else secrecy.hidden_label(race),
        "mode": race.mode,
        "player": {"id": entry.pk, "name": entry.name, "status": entry.status},
        "duration_ms": max([*ends, _since_start(race, race.finished_at) or 0]),
        "steps": steps,
        "players": others,
    }


def entry_steps(race, entry, log, tables=False):
    """The entry's game after each stored row of `log` (seq order), from the deal on.

    Each step: `seq`, `kind` (`deal`, `move`, `undo`, `end`), `changed` (the slots
    the row moved), `at_ms` (since the race's start), `score`, `moves`,
    `cards_left`, `status`, `heights`; with `tables`, also `slots` (each slot's
    count and top card)."""
    game = Game(race.deal.engine_deal())
    steps = [_step(game, 0, DEAL, [], 0, game.status, tables)]
    for row in log:
        if row.kind == Move.UNDO:
            changed = list(game.undo().slots)
        else:
            changed = list(game.remove(row.slots).slots)
        at = _since_start(race, row.at)
        steps.append(_step(game, row.seq, row.kind, changed, at, game.status, tables))
    if entry.status != game.status and entry.status in Entry.DONE:
        at = _since_start(race, entry.finished_at or race.finished_at)
        steps.append(_step(game, entry.seq, END, [], at, entry.status, tables))
    return steps


def timeline(entry, heights=True):
    """A recorded game as a ghost races it: `[at_ms, score, moves, cards_left, heights,
    status]` after the deal and after each stored move, undo and end (`entry_steps`
    without tables: progress only, never a card). Without `heights`, each point's
    heights are None: step by step they trace which piles each move took from."""
    log = list(Move.objects.filter(entry=entry).order_by("seq"))
    return [
        [
            step["at_ms"],
            step["score"],
            step["moves"],
            step["cards_left"],
            step["heights"] if heights else None,
            step["status"],
        ]
        for step in entry_steps(entry.race, entry, log)
    ]


def line_steps(deal_row, played, line):
    """The tables along `line`, a winning line played on from the position after the
    moves `played` (game/postgame.py): each step as in `entry_steps`, with `slots`,
    numbered from 1, at no time (no one played them)."""
    game = Game(deal_row.engine_deal())
    for move in played:
        game.remove(move)
    steps = []
    for number, move in enumerate(line, start=1):
        changed = list(game.remove(move).slots)
        steps.append(_step(game, number, LINE, changed, 0, game.status, tables=True))
    return steps


def _step(game, seq, kind, changed, at_ms, status, tables):
    step = {
        "seq": seq,
        "kind": kind,
        "changed": changed,
        "at_ms": at_ms or 0,
        "score": game.score,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": status,
        "heights": boards.heights(game),
    }
    if tables:
        step["slots"] = [view._asdict() for view in scheme(game)]
    return step


def _racer(entry, steps, player_key):
    """One player of the race for the side-by-side view: progress only, never a card."""
    return {
        "id": entry.pk,
        "name": entry.name,
        "status": entry.status,
        "url": url(entry) if visible(entry.race, entry, player_key) else None,
        "steps": steps,
    }


def _logs(race):
    """Every stored move and undo of the race, by entry, in seq order (one query)."""
    logs = {}
    for row in Move.objects.filter(entry__race=race).order_by("entry_id", "seq"):
        logs.setdefault(row.entry_id, []).append(row)
    return logs


def _since_start(race, moment):
    """Milliseconds from the race's start to `moment` (None without either)."""
    if race.started_at is None or moment is None:
        return None
    return max(0, int((moment - race.started_at).total_seconds() * 1000))
