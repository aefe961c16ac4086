"""
Every frame the server sends, built here and nowhere else (tests/race/test_schema.py
proves no other module writes a frame's `type`), as game/race/schema.py declares it.

docs/protocol.md is the contract these shapes follow: a new message type is a Struct
in schema.py, a row in the doc's table and a function in this module. Race sockets get
every frame above "to an event's standings sockets", event sockets those below it
(and `pong`, `error`). Opponents and spectators get counts, scores and the slots that
moved, never a card; a player's board (tops only) goes to that player alone, once the
race runs. Broadcast frames get their `event` number
from `clock.numbered` (for `actions`) or from the statement of `moves` (the
common move), in the transaction that made the change they report.
"""

import time

import orjson

from game.deals import secrecy
from game.models import Race
from game.race import history, splits
from game.results import games, rated
from game.results.standings import standings


def ms(moment):
    """A datetime as milliseconds since the Unix epoch (None stays None)."""
    return None if moment is None else int(moment.timestamp() * 1000)


# --- to the socket that asked ---------------------------------------------------------


def state(race, entry, player_key, now):
    """The full snapshot: on connect, on `sync`, and whenever a client saw a gap."""
    game = None
    if entry is not None and race.status in (Race.RUNNING, Race.FINISHED):
        game = games.cache.get(entry, race.deal)
    return snapshot(race, list(race.entries.all()), entry, game, player_key, now)


def snapshot(race, entries, entry, game, player_key, now):
    """`state` from what was read already: the race's `entries`, the asking player's
    `entry` among them and its `game` (None before the race runs, or for a spectator)."""
    host = next((e.pk for e in entries if e.player_key == race.host_key), None)
    board = games.board(game, entry) if game is not None else None
    return {
        "type": "state",
        "event": race.event,
        "now": ms(now),
        "you": {
            "player": entry.pk if entry else None,
            "name": entry.name if entry else None,
            "role": "player" if entry else "spectator",
            "host": bool(player_key) and player_key == race.host_key,
        },
        "race": {
            "room": race.room,
            "deal": secrecy.shown_code(race),
            "mode": race.mode,
            "status": race.status,
            "host": host,
            "time_limit_s": race.time_limit_s,
            "starts_at": ms(race.starts_at),
            "started_at": ms(race.started_at),
            "ends_at": ms(race.ends_at),
            "finished_at": ms(race.finished_at),
            "rematch": race.rematch.room if race.rematch_id else None,
            "rated": race.rated,
        },
        "players": [player(race, e) for e in entries],
        "board": board,
        "standings": final_standings(race, entries) if race.status == Race.FINISHED else None,
    }


def final_standings(race, entries):
    """The standings of a finished race; in a rated race each account's line has its
    `rating` (the new rating and its change, or pending: game/results/rated.py)."""
    rows = standings(entries)
    ratings = rated.lines(race)
    for line in rows:
        if line["player"] in ratings:
            line["rating"] = ratings[line["player"]]
    return rows


def ghost(race):
    """The recorded game a ghost race is run against, sent after the `state` on connect:
    whose it is (`best`: the player's own) and its progress over time
    (game/replays/watch.py `timeline`), never a card; pile heights only where
    game/deals/secrecy.py allows. The client moves it on its own clock from the race's
    `started_at`. `splits`: the split table so far (game/race/splits.py), which the end
    dialog shows once the game is over, on a reload too."""
    recorded = race.ghost_of
    points = history.timeline(recorded, heights=secrecy.ghost_heights_shown(race))
    return {
        "type": "ghost",
        "ghost": {
            "of": "best" if recorded.player_key == race.host_key else "leader",
            "name": recorded.name,
            "points": points,
        },
        "splits": splits.race_table(race, points),
    }


def moved(seq, kind, result, game, entry, event=None, split=None):
    """The mover's answer: the cards that moved and the new tops, never a card beneath.

    `event` is the number of the `progress` broadcast of the same move: the mover's
    socket takes it as that broadcast, which is then not sent to it again. `split`: in
    a ghost race, the split this move made (game/race/splits.py), said with the move."""
    frame = {
        "type": "moved",
        "seq": seq,
        "kind": kind,
        "slots": list(result.slots),
        "removed": dict(zip(result.slots, result.removed, strict=True)),
        "revealed": dict(zip(result.slots, result.revealed, strict=True)),
        "score": game.score,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": game.status,
        "can_undo": games.can_undo(game, entry),
    }
    if event is not None:
        frame["event"] = event
    if split is not None:
        frame["split"] = split
    return frame


def encoded(frame):
    """A frame as the text sent on the socket; a broadcast is encoded once for all.

    orjson: the same compact JSON (slot numbers as keys become strings, as with
    `json`; names stay UTF-8 instead of \\u escapes) in a tenth of `json.dumps`'s time,
    0.6-0.8 µs a frame instead of 6-7."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def rejected(seq, code, message):
    return {"type": "rejected", "seq": seq, "code": code, "message": message}


def error(code, message):
    return {"type": "error", "code": code, "message": message}


def pong():
    return {"type": "pong", "now": int(time.time() * 1000)}


# --- to everyone in the race ----------------------------------------------------------


def player(race, entry):
    """A player's public card: what opponents and spectators may know."""
    return {
        "id": entry.pk,
        "name": entry.name,
        "host": entry.player_key == race.host_key,
        "connected": entry.connected,
        "status": entry.status,
        "score": entry.score,
        "moves": entry.moves,
        "cards_left": entry.cards_left,
        "heights": entry.heights,
        "finished_at": ms(entry.finished_at),
    }


def player_joined(race, entry):
    return {"type": "player_joined", "player": player(race, entry)}


def player_left(entry):
    return {"type": "player_left", "player": entry.pk, "connected": False}


def host(entry):
    """The host's role passed to this player (the host left the lobby for good)."""
    return {"type": "host", "player": entry.pk}


def progress(entry, seq, kind, slots):
    return {
        "type": "progress",
        "player": entry.pk,
        "seq": seq,
        "kind": kind,
        "score": entry.score,
        "moves": entry.moves,
        "cards_left": entry.cards_left,
        "status": entry.status,
        "slots": slots,
        "heights": entry.heights,
        "finished_at": ms(entry.finished_at),
    }


def countdown(race, players):
    return {"type": "countdown", "starts_at": ms(race.starts_at), "players": players}


def requeued(race):
    """A quick race called off at its countdown's end (fewer than two of its seated
    players came): those who did are back at the front of the queue."""
    return {"type": "requeued", "players": list(race.entries.values_list("pk", flat=True))}


def started(race):
    return {"type": "started", "started_at": ms(race.started_at), "ends_at": ms(race.ends_at)}


def finished(race):
    """The end: when, the standings and, now that it may be known, the deal's code
    (None for today's daily deal); in a ghost race, the split table."""
    frame = {
        "type": "finished",
        "finished_at": ms(race.finished_at),
        "standings": final_standings(race, race.entries.all()),
        "deal": secrecy.shown_code(race),
    }
    if race.ghost_of_id is not None:
        frame["splits"] = splits.race_table(race)
    return frame


def rematch(race):
    return {"type": "rematch", "room": race.room, "url": secrecy.game_url(race)}


# --- to an event's standings sockets ---------------------------------------------------


def event_standings(event_id, rows, top, over):
    """The `standings` frame: the `top` first of the ranked `rows` and how many play;
    `at` is when it was computed (server ms), so a client knows its age."""
    return {
        "type": "standings",
        "id": event_id,
        "at": int(time.time() * 1000),
        "over": over,
        "players": len(rows),
        "top": [_event_line(row) for row in rows[:top]],
    }


def standings_you(rows, position, near):
    """The `standings_you` frame of the player at `position` (0-based) in `rows`, with
    the `near` lines above and below."""
    low, high = max(0, position - near), position + near + 1
    return {
        "type": "standings_you",
        "rank": rows[position][0],
        "players": len(rows),
        "near": [_event_line(row) for row in rows[low:high]],
        "you": rows[position][1],
    }


def _event_line(row):
    rank, entry_id, name, earned, wins, among = row
    return {
        "rank": rank,
        "id": entry_id,
        "name": name,
        "points": earned,
        "wins": wins,
        "list": among,
    }
