"""
Replays: a finished game rebuilt move by move, and who may watch it.

Nothing new is stored for a replay. The deal and the entry's stored rows (undos
included, each with its time, live or packed: game/results/move_log.py) are replayed
through the engine, exactly as `games.replay` rebuilds a game in play, and the
position after every row is recorded: the replay can only ever show what the game
really was, and its last step is the entry as stored (`tests/replays/test_replays.py`
holds it to that).

A step shows each slot's count and top card, never a card beneath a top: the
game is over, so its playable cards are no secret from whoever may watch it,
and `visible` decides who that is. The deal's code is another matter: its
player watches a game at once, while the code may still be secret (today's
daily deal, a hidden deal whose race runs on), so it is shown as
`secrecy.shown_code` says. The race around the game is given as every
player's score, cards left and pile heights over time, never a card.
"""

from game.base import links
from game.deals import secrecy
from game.models import Entry, Race
from game.race import history
from game.results import move_log, standings
from game.results.standings import ranked


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
    return links.room_url("game:replay", entry.race.room, entry.pk)


def urls(entries, player_key):
    """{entry id: the link to its replay} of those of `entries` the holder of `player_key`
    may watch (a board's rows: the route looked up once for all)."""
    replay_url = links.room_route("game:replay", 1)
    return {e.pk: replay_url(e.race.room, e.pk) for e in entries if visible(e.race, e, player_key)}


def find(room, player):
    """The entry `player` of the race `room`, with its race and deal; None if there is none."""
    return Entry.objects.select_related("race__deal").filter(race__room=room, pk=player).first()


def replay(race, entry, player_key):
    """The replay of `entry` as the viewer may see it: its steps and the race's players."""
    logs = _logs(race)
    others = []
    for _rank, other in ranked(race.entries.all()):
        steps = history.entry_steps(race, other, logs.get(other.pk, []))
        others.append(_racer(other, steps, player_key))
    steps = history.entry_steps(race, entry, logs.get(entry.pk, []), tables=True)
    ends = [step["at_ms"] for racer in others for step in racer["steps"]]
    code = secrecy.shown_code(race)  # None: a player watching their own game of today
    return {
        "room": race.room,
        "deal": code,
        "label": None if code else secrecy.hidden_label(race),
        "mode": race.mode,
        "player": {"id": entry.pk, "name": entry.name, "status": entry.status},
        "duration_ms": max([*ends, standings.since_start(race, race.finished_at) or 0]),
        "steps": steps,
        "players": others,
    }


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
    """Every stored move and undo of the race, by entry, in seq order (two queries)."""
    return move_log.rows_for(race.entries.all())
