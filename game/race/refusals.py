"""
Who may do what to a race, and when: the rules behind every refusal of an action.

`actions` asks these inside the race's transaction, after the clock is applied, so
a refusal is judged on the race as it is now. A refused join, start, resign,
rematch or restart raises the coded GameError the socket sees as `error`; a refused move is
answered with `rejected` for its `seq`, so `move` returns its code and message.
"""

from game.base.errors import GameError
from game.models import Race
from game.players import trust

MAX_PLAYERS = 8


def join(race):
    """A newcomer joins only in the lobby, while a seat is free: one for a game
    played alone, MAX_PLAYERS for a race."""
    if race.status != Race.LOBBY:
        raise GameError("race_started", "this race has started; you can watch it")
    limit = 1 if race.mode in Race.ALONE else MAX_PLAYERS
    if race.entries.count() >= limit:
        raise GameError("race_full", f"this race has its {limit} player(s) already")


def join_blocked(race, user):
    """An account joins no race (by its link) with an account it blocked, or that
    blocked it: a block keeps two accounts out of one another's races."""
    if user is None:
        return
    players = race.entries.filter(user__isnull=False).values_list("user_id", flat=True)
    if trust.blocked_with(user, players):
        raise GameError("race_blocked", "you and a player in this race have a block between you")


def renames(race, entry):
    """Whether a join may rename `entry`: not once its game or its race is over, so the
    standings and the daily boards keep the name a result finished with."""
    return not (entry.done or race.status == Race.FINISHED)


def start(race, player_key):
    """Only the host starts the race, and only once."""
    if player_key != race.host_key:
        raise GameError("not_host", "only the host starts the race")
    if race.status != Race.LOBBY:
        raise GameError("race_started", "this race has started already")


def resign(race):
    """Resigning is giving up a game under way: not before the start, nor after the end."""
    if race.status != Race.RUNNING:
        raise GameError("not_running", "the race is not running")


def rematch(race, entries, player_key):
    """A rematch follows a finished race, asked by the host; or by any player when
    there is no host (a quick race) or the host is gone."""
    if race.status != Race.FINISHED:
        raise GameError("not_finished", "a rematch follows a finished race")
    if player_key == race.host_key:
        return
    host = next((e for e in entries if e.player_key == race.host_key), None)
    member = any(e.player_key == player_key for e in entries)
    if not (member and (host is None or not host.connected)):
        raise GameError("not_host", "only the host asks for a rematch")


def restart(race):
    """Only a solo game starts again on its deal: a race, a daily attempt or a ghost
    race is played once (the attempt is the day's only one, the others race someone)."""
    if race.mode != Race.SOLO:
        raise GameError("not_solo", "only a solo game can be restarted")


def move(race, entry, seq):
    """(code, message) refusing a move or undo numbered `seq`, or None to try it."""
    if race.status != Race.RUNNING:
        return "not_running", "the race is not running"
    if seq != entry.seq + 1:
        return "bad_seq", f"expected seq {entry.seq + 1}; send sync to catch up"
    if entry.done:
        return "game_over", "your game is over"
    return None
