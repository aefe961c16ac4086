"""
A game played alone started by its player's first socket in one statement, on the
event loop: the newcomer's arrival at the daily reset (docs/performance.md "The rush").

`actions.connect` starts such a game (`Race.ALONE`, in the lobby) in a locked
transaction of about ten ORM statements on the process's one database thread, which
took a rush's newcomers one at a time (a quarter of the rush's profile). Here, once
`arrival` has read the race and marked the socket present, the start is one guarded
statement on the arrival's pool (`moves.fetch`): the race running from now with its
time limit, its entry announced back and dealt its game's first status, the race's
`event` bumped by the frames it numbers. Its replies are those of the careful way —
`player_joined` and `started` numbered as `clock.numbered` numbers them, then the
`state` — so a client cannot tell which way it went.

The statement changes nothing unless the race is still as read: in the lobby, at the
`event` read (nothing was announced since), its one entry the player's and not yet
announced. A second tab, another process or the careful way that started it first
leaves it nothing to do: None, and the careful way answers. So does anything else the
careful way would do more of: a game with no move at the start (its status is not
`playing`), a time limit already run out, a ghost race (its `ghost` frame) or a
rematch. If the statement's answer is lost (a timeout), the careful way finds the race
running and sends its `state`; the player, who is alone, misses no frame of theirs.
"""

from game.models import Entry, Race
from game.race import attendance, clock, frames, moves
from game.race.actions import Outcome, seated
from game.results import games

STATEMENT = """
WITH started AS (
    UPDATE game_race SET status = 'running', starts_at = %(now)s, started_at = %(now)s,
        time_limit_s = %(limit)s, event = event + 2
    WHERE id = %(race)s AND status = 'lobby' AND event = %(event)s
      AND EXISTS (SELECT FROM game_entry e
                  WHERE e.id = %(entry)s AND e.race_id = %(race)s AND NOT e.connected)
      AND NOT EXISTS (SELECT FROM game_entry e WHERE e.race_id = %(race)s AND e.id <> %(entry)s)
    RETURNING id
)
UPDATE game_entry SET connected = true, left_at = NULL, status = %(status)s
FROM started WHERE game_entry.id = %(entry)s AND game_entry.race_id = started.id
RETURNING game_entry.id
"""
"""The start, guarded: the race row is locked by its update, as `actions` locks it
first, then the entry's; nothing is changed when the race is no longer as read."""


def startable(race, entries, entry):
    """Whether this socket's arrival would start `race` and nothing more (so far as the
    race's row says: `start` checks the rest)."""
    return (
        race.mode in Race.ALONE
        and race.status == Race.LOBBY
        and race.ghost_of_id is None
        and not race.rematch_id
        and entry is not None
        and not entry.connected
        and len(entries) == 1
    )


async def start(race, entry, review, now):
    """The `Outcome` of `actions.connect` starting `race` for `entry`'s player, whose
    socket is marked present (`review`: the marks read after), or None: the careful way."""
    changes = [(each.pk, change) for each, change, _ in review.changes]
    if review.new_host is not None or changes != [(entry.pk, attendance.BACK)]:
        return None  # the careful way announces more than the player back
    game = games.rebuild(race.deal, [])
    limit = clock.limit_s(race.mode, race.daily_date, now, race.closes_at)
    if game.status != Entry.PLAYING or limit == 0:
        return None
    params = {"race": race.pk, "entry": entry.pk, "event": race.event, "now": now}
    params |= {"limit": limit, "status": game.status}
    if not await moves.fetch(STATEMENT, params):
        return None
    return _outcome(race, entry, game, now, limit)


def _outcome(race, entry, game, now, limit):
    """The frames of the start as the careful way numbers and builds them."""
    entry.connected, entry.left_at = True, None
    joined = clock.numbered(race, frames.player_joined(race, entry))
    race.status, race.starts_at, race.started_at = Race.RUNNING, now, now
    race.time_limit_s = limit
    entry.status = game.status
    started = clock.numbered(race, frames.started(race))
    games.cache.put(entry.pk, entry.seq, game)
    out = Outcome(broadcast=[joined, started])
    seated(race, entry, out)
    out.reply.append(frames.snapshot(race, [entry], entry, game, entry.player_key, now))
    return out
