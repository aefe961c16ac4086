"""
What a client is shown of a race: the `state` snapshot, a player's public card,
a `progress` frame. Opponents are counts, scores and slots, never cards; the
board (with its playable tops) goes to its own player only, once the race runs.
"""

from django.urls import reverse

from game import boards, protocol
from game.models import Race
from game.standings import standings


def entries_of(race):
    entries = list(race.entries.all())
    for entry in entries:
        entry.race = race
    return entries


def player(race, entry):
    return {
        "id": entry.pk,
        "name": entry.name,
        "host": entry.player_key == race.host_key,
        "connected": entry.connections > 0,
        "status": entry.status,
        "score": entry.score,
        "moves": entry.moves,
        "cards_left": entry.cards_left,
        "heights": entry.heights,
        "finished_at": protocol.ms(entry.finished_at),
    }


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
    }


def race_url(race):
    return reverse("game:race", args=[race.room])


def ws_path(race):
    return f"/ws/race/{race.room}/"


def state(race, entry, player_key, now):
    entries = entries_of(race)
    host = next((e.pk for e in entries if e.player_key == race.host_key), None)
    playing = race.status in (Race.RUNNING, Race.FINISHED)
    board = None
    if entry is not None and playing:
        board = boards.board(boards.games.get(entry, race.deal), entry)
    return {
        "type": "state",
        "event": race.event,
        "now": protocol.ms(now),
        "you": {
            "player": entry.pk if entry else None,
            "name": entry.name if entry else None,
            "role": "player" if entry else "spectator",
            "host": bool(player_key) and player_key == race.host_key,
        },
        "race": {
            "room": race.room,
            "deal": race.deal.code,
            "mode": race.mode,
            "status": race.status,
            "host": host,
            "time_limit_s": race.time_limit_s,
            "starts_at": protocol.ms(race.starts_at),
            "started_at": protocol.ms(race.started_at),
            "ends_at": protocol.ms(race.ends_at),
            "finished_at": protocol.ms(race.finished_at),
            "rematch": race.rematch.room if race.rematch_id else None,
        },
        "players": [player(race, e) for e in entries],
        "board": board,
        "standings": standings(entries) if race.status == Race.FINISHED else None,
    }
