"""
The race lifecycle: every decision about a race, as plain synchronous functions,
but one: a legal move on a game the process holds, which game/race/moves.py decides
and stores on the event loop (anything else it leaves to `move`/`undo` here).

Each public function is one short transaction that locks the race row first
(`_locked`), so whatever process handles a player's frame, changes to one race
happen one at a time. It returns an `Outcome`: the frames for the socket that
asked and the frames for everyone in the race, each broadcast numbered with the
race's `event`. The clock is applied first in every one of them
(game/race/clock.py), the rules that refuse an action are game/race/refusals.py, and
a game played alone is found again or created by game/lobby/alone.py.
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.base import presence
from game.base.errors import GameError
from game.base.rooms import new_room
from game.deals import codes
from game.engine import IllegalMove
from game.models import Entry, Move, Race
from game.players import accounts
from game.race import attendance, clock, frames, refusals, splits
from game.race.clock import numbered
from game.results import games, move_log


@dataclass
class Outcome:
    """What an action changed, to be sent by `broadcast.publish_outcome` and nothing else."""

    reply: list = field(default_factory=list)
    """Frames for the socket that asked."""
    broadcast: list = field(default_factory=list)
    """Frames for everyone in the race, each numbered with its `event`."""
    player: int | None = None
    """The asking session's entry in the race (set by `connect` and `join`), None if watching."""


# --- creating races -------------------------------------------------------------------


def create_race(
    deal,
    host_key,
    *,
    mode=Race.RACE,
    name=None,
    daily_date=None,
    deal_hidden=False,
    ghost_of=None,
    closes_at=None,
    verifies=None,
):
    """A new race in the lobby; with `name`, the host is its first player.

    `deal_hidden`: nobody chose this deal (random, quick race, rematch), so its
    code stays secret until the race is finished (game/deals/secrecy.py); `closes_at`:
    an event's game, whose time and secret end with the event (game/events/); `verifies`:
    a verification deal's held result (game/results/verify.py)."""
    with transaction.atomic():
        race = _new_room_race(
            deal=deal,
            mode=mode,
            host_key=host_key,
            daily_date=daily_date,
            deal_hidden=deal_hidden,
            ghost_of=ghost_of,
            closes_at=closes_at,
            verifies=verifies,
            time_limit_s=clock.limit_s(mode, daily_date, timezone.now(), closes_at),  # and at start
        )
        if name:
            add_entry(race, host_key, name)
        return race


def _new_room_race(**fields):
    for _ in range(20):
        try:
            with transaction.atomic():
                return Race.objects.create(room=new_room(), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("no free room code")


def add_entry(race, player_key, name, connected=False):
    """A player in `race`; an account plays under its username, and a daily attempt
    is dated (one per account and day: a database constraint)."""
    user = accounts.user_for(player_key)
    return Entry.objects.create(
        race=race,
        player_key=player_key,
        user=user,
        name=accounts.shown_name(user, name),
        daily_date=race.daily_date if race.mode == Race.DAILY else None,
        connected=connected,
        heights=games.INITIAL_HEIGHTS,
    )


# --- the socket's requests ------------------------------------------------------------


def connect(room, player_key, socket):
    """A socket opened: its player's presence mark, a solo race started, the snapshot."""
    with _locked(room) as (race, out, now):
        entry = _entry(race, player_key)
        if entry is not None:
            presence.refresh([(room, entry.pk, socket)])
            out.broadcast += attendance.apply(race, now, numbered)
            if race.mode in Race.ALONE and race.status == Race.LOBBY:
                out.broadcast += clock.begin(race, now, delay=0)
            entry.refresh_from_db()
            seated(race, entry, out)
        out.reply.append(frames.state(race, entry, player_key, now))
        if race.ghost_of_id is not None:
            out.reply.append(frames.ghost(race))
    return out


def disconnect(room, player_key, entry_id, socket):
    """A player's socket closed cleanly: its mark ends now, and if it was the
    player's last one, the race hears that they left."""
    presence.end(room, entry_id, socket)
    return tick(room)


def sync(room, player_key):
    with _locked(room) as (race, out, now):
        out.reply.append(frames.state(race, _entry(race, player_key), player_key, now))
    return out


def tick(room):
    """Apply the server clock (a countdown's end, a time limit) and who is present; idempotent."""
    with _locked(room) as (_race, out, _now):
        pass
    return out


def join(room, player_key, name, socket):
    """Join (or rename yourself, until your game is over); the asking socket marks the
    player present from now on."""
    with _locked(room) as (race, out, now):
        entry = _entry(race, player_key)
        if entry is None:
            refusals.join(race)
            refusals.join_blocked(race, accounts.user_for(player_key))
            entry = add_entry(race, player_key, name, connected=True)
        else:
            if refusals.renames(race, entry):
                entry.name = accounts.shown_name(entry.user, name)
            entry.connected, entry.left_at = True, None
            entry.save(update_fields=["name", "connected", "left_at"])
        presence.refresh([(room, entry.pk, socket)])
        out.broadcast.append(numbered(race, frames.player_joined(race, entry)))
        out.reply.append(frames.state(race, entry, player_key, now))
        seated(race, entry, out)
    return out


def seated(race, entry, out):
    """The asking socket is this entry's player: the consumer marks it present, and its
    moves come to this process, whose fast path then knows the race's pace (splits)."""
    out.player = entry.pk
    splits.paces.put(entry.pk, splits.pace_of(race))


def start(room, player_key):
    with _locked(room) as (race, out, now):
        refusals.start(race, player_key)
        # Players who left the lobby do not hold the race up until its time limit.
        race.entries.filter(connected=False).delete()
        if not race.entries.exists():
            raise GameError("no_players", "join the race before starting it")
        out.broadcast += clock.begin(race, now, delay=settings.HALFMOON_COUNTDOWN_S)
    return out


def start_now(room, delay):
    """Start a race that has no host to start it (a quick race): countdown of `delay` s."""
    with _locked(room) as (race, out, now):
        out.broadcast += clock.begin(race, now, delay)
    return out


def move(room, player_key, seq, slots):
    return _play(room, player_key, seq, Move.MOVE, list(slots))


def undo(room, player_key, seq):
    return _play(room, player_key, seq, Move.UNDO, [])


def resign(room, player_key):
    with _locked(room) as (race, out, now):
        entry = _player_entry(race, player_key)
        refusals.resign(race)
        out.broadcast += _give_up(race, entry, now)
    return out


def _give_up(race, entry, now):
    """The frames of `entry` giving its game up (none if it is over already)."""
    if entry.done:
        return []
    entry.status, entry.finished_at = Entry.RESIGNED, now
    entry.save(update_fields=["status", "finished_at"])
    move_log.pack([entry], race)
    frame = frames.progress(entry, seq=None, kind="resign", slots=[])
    return [numbered(race, frame), *clock.finish_if_all_done(race, now)]


def rematch(room, player_key):
    """A new race on a new deal for the same players; asked twice, the same one."""
    with _locked(room) as (race, out, now):
        entries = list(race.entries.all())
        refusals.rematch(race, entries, player_key)
        if race.rematch_id is None:
            mode = Race.SOLO if race.mode in Race.ALONE else Race.RACE
            race.rematch = create_race(codes.random_deal(), player_key, mode=mode, deal_hidden=True)
            for entry in entries:
                add_entry(race.rematch, entry.player_key, entry.name)
            out.broadcast.append(numbered(race, frames.rematch(race.rematch)))
        else:
            out.reply.append(frames.state(race, _entry(race, player_key), player_key, now))
    return out


def restart(room, player_key):
    """A solo game again on the same deal, from the start: the game in play is given
    up (it stays in the player's history) and the new one follows it as its
    `rematch`, so the old game's other tabs follow too. Its reply is that `rematch`
    frame; asked again before the new game is over (a double tap), the same one."""
    with _locked(room) as (race, out, now):
        entry = _player_entry(race, player_key)
        refusals.restart(race)
        follow = race.rematch
        if race.status == Race.LOBBY:
            follow = race  # not begun: it is at the start already
        elif follow is None or follow.deal_id != race.deal_id or follow.status == Race.FINISHED:
            if race.status == Race.RUNNING:
                out.broadcast += _give_up(race, entry, now)
            follow = create_race(  # a past day played later stays one
                race.deal, player_key, mode=Race.SOLO, name=entry.name, daily_date=race.daily_date
            )
            race.rematch = follow
            out.broadcast.append(numbered(race, frames.rematch(follow)))
        out.reply.append(frames.rematch(follow))
    return out


# --- moves ----------------------------------------------------------------------------


def _play(room, player_key, seq, kind, slots):
    with _locked(room, attend=False) as (race, out, now):
        entry = _entry(race, player_key)
        if entry is None:
            out.reply.append(frames.rejected(seq, "not_a_player", _NOT_A_PLAYER))
            return out
        if seq <= entry.seq:
            out.reply.append(_retried(race, entry, seq, kind, slots))
            return out
        refusal = refusals.move(race, entry, seq)
        if refusal:
            out.reply.append(frames.rejected(seq, *refusal))
            return out
        game = games.cache.take(entry, race.deal)
        try:
            result = game.remove(slots) if kind == Move.MOVE else game.undo()
        except IllegalMove as exc:
            games.cache.put(entry.pk, entry.seq, game)
            out.reply.append(frames.rejected(seq, exc.code, str(exc)))
            return out
        Move.objects.create(entry=entry, seq=seq, kind=kind, slots=list(result.slots), at=now)
        entry.seq, entry.score, entry.moves = seq, game.score, game.moves
        entry.undos += kind == Move.UNDO
        entry.cards_left, entry.status, entry.last_move_at = game.cards_left, game.status, now
        entry.heights = games.heights(game)
        entry.finished_at = now if entry.status == Entry.WON else None
        entry.save(update_fields=_MOVE_FIELDS)
        transaction.on_commit(lambda: games.cache.put(entry.pk, seq, game))
        progress = numbered(race, frames.progress(entry, seq, kind, list(result.slots)))
        split = _split(race, entry, kind, game, now)
        out.reply.append(frames.moved(seq, kind, result, game, entry, progress["event"], split))
        out.broadcast.append(progress)
        if entry.done:
            move_log.pack([entry], race)
            out.broadcast += clock.finish_if_all_done(race, now)
    return out


_MOVE_FIELDS = [
    "seq",
    "score",
    "moves",
    "cards_left",
    "status",
    "last_move_at",
    "heights",
    "finished_at",
    "undos",
]


def _retried(race, entry, seq, kind, slots):
    """The same `moved` as the first time for a seq already accepted (a retry)."""
    stored = next((row for row in move_log.rows(entry, upto=seq) if row.seq == seq), None)
    if stored is None or stored.kind != kind or (kind == Move.MOVE and stored.slots != slots):
        return frames.rejected(seq, "bad_seq", f"seq {seq} was a different move; send sync")
    game = games.replay(entry, race.deal, upto=seq - 1)
    result = game.remove(slots) if kind == Move.MOVE else game.undo()
    return frames.moved(
        seq, kind, result, game, entry, split=_split(race, entry, kind, game, stored.at)
    )


def _split(race, entry, kind, game, at):
    """The split a move stored `at` made in a ghost race (game/race/splits.py), or None."""
    if kind != Move.MOVE or not splits.makes_split(game.moves):
        return None
    return splits.live(splits.pace_for(race, entry.pk), game.moves, at)


# --- plumbing -------------------------------------------------------------------------


class _locked:
    """`with _locked(room) as (race, out, now)`: one transaction, the race row locked,
    the clock applied first, the race saved at the end if any broadcast changed it."""

    def __init__(self, room, attend=True):
        self.room, self.attend = room, attend
        self.atomic = transaction.atomic()

    def __enter__(self):
        """Everything that may fail once the transaction is open is inside its `try`: a
        `with` never exits what its `__enter__` raised from, and an atomic block left
        open would refuse this thread every later query (a database blip during the
        clock's queries wedged a process's sockets until it restarted)."""
        self.atomic.__enter__()
        try:
            race = (
                Race.objects.select_for_update(of=("self",))
                .select_related("deal")
                .get(room=self.room)
            )
            now = timezone.now()
            self.race, self.event = race, race.event
            self.out = Outcome(broadcast=clock.advance(race, now, self.attend))
        except Race.DoesNotExist:
            self.atomic.__exit__(None, None, None)
            raise GameError("no_such_race", f"no race {self.room[:8]!r}") from None
        except BaseException as exc:
            self.atomic.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return race, self.out, now

    def __exit__(self, kind, exc, tb):
        if kind is None and self.race.event != self.event:
            self.race.save(update_fields=_RACE_FIELDS)
        return self.atomic.__exit__(kind, exc, tb)


_RACE_FIELDS = [
    "status",
    "event",
    "host_key",
    "starts_at",
    "started_at",
    "time_limit_s",
    "finished_at",
    "rematch",
]


def _entry(race, player_key):
    if not player_key:
        return None
    return Entry.objects.filter(race=race, player_key=player_key).first()


_NOT_A_PLAYER = "you are watching this race, not playing"


def _player_entry(race, player_key):
    entry = _entry(race, player_key)
    if entry is None:
        raise GameError("not_a_player", _NOT_A_PLAYER)
    return entry
