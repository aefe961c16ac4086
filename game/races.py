"""
The race lifecycle: every decision about a race, as plain synchronous functions.

Each public function is one short transaction that locks the race row first,
so whatever process handles a player's frame, changes to one race happen one
at a time. It returns an `Outcome`: the frames for the socket that asked and
the frames for everyone in the race. Every broadcast frame carries the race's
`event` number, incremented in the same transaction as the change it reports,
so a client that sees a gap knows it missed something and asks for `state`.

The clock is the server's: a countdown's end and a time limit are stored as
instants and applied lazily by `_advance()` at the start of every call (and by
`tick()`, which connected consumers call when a deadline passes). Whichever
process gets there first makes the change; the others find it made.
"""

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from game import accounts, attendance, boards, fairplay, frames, presence
from game.engine import Game, IllegalMove, format_code
from game.engine.deals import MAX_NUMBER
from game.errors import GameError
from game.models import DailyDeal, Deal, Entry, Move, Race
from game.rooms import new_room

MAX_PLAYERS = 8


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


def random_deal():
    return Deal.for_code(format_code(secrets.randbelow(MAX_NUMBER + 1)))


def create_race(
    deal, host_key, *, mode=Race.RACE, name=None, daily_date=None, deal_hidden=False, ghost_of=None
):
    """A new race in the lobby; with `name`, the host is its first player.

    `deal_hidden`: nobody chose this deal (random, quick race, rematch), so its
    code stays secret until the race is finished (game/secrecy.py)."""
    with transaction.atomic():
        race = _new_room_race(
            deal=deal,
            mode=mode,
            host_key=host_key,
            daily_date=daily_date,
            deal_hidden=deal_hidden,
            ghost_of=ghost_of,
            time_limit_s=settings.HALFMOON_TIME_LIMIT_S,
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


def solo_race(deal, player_key, name):
    """This player's unfinished solo race on `deal` (with time left), or a new one."""
    mine = Race.objects.filter(mode=Race.SOLO, deal=deal, entries__player_key=player_key)
    return _unfinished(mine) or create_race(deal, player_key, mode=Race.SOLO, name=name)


def ghost_race(day, ghost, player_key, name):
    """This player's unfinished race against `ghost` (an Entry) on the deal of `day`
    (a DailyDeal), or a new one: played alone, like a solo game. Its entry is no
    daily attempt (no `Entry.daily_date`), so it never ranks; the race carries the
    day so that today's code stays hidden (game/secrecy.py)."""
    mine = Race.objects.filter(mode=Race.GHOST, ghost_of=ghost, entries__player_key=player_key)
    return _unfinished(mine) or create_race(
        day.deal, player_key, mode=Race.GHOST, name=name, daily_date=day.date, ghost_of=ghost
    )


def _unfinished(mine):
    """The first of these races not finished and with time left, or None."""
    now = timezone.now()
    return next(
        (r for r in mine.exclude(status=Race.FINISHED) if r.ends_at is None or r.ends_at > now),
        None,
    )


def daily_race(daily, player_key, name):
    """This player's one attempt at a day's deal, finished or not.

    Two requests at once (two tabs, two processes) must not make two attempts.
    An account's one attempt a day is a database constraint on its entries
    (`one_daily_attempt_per_account`): the second insert fails and finds the first.
    A guest's, by the day's row locked while looking and creating."""
    try:
        with transaction.atomic():
            DailyDeal.objects.select_for_update().get(pk=daily.pk)
            return daily_attempt(daily, player_key) or create_race(
                daily.deal, player_key, mode=Race.DAILY, name=name, daily_date=daily.date
            )
    except IntegrityError:
        return daily_attempt(daily, player_key)


def daily_attempt(daily, player_key):
    """This player's attempt at a day's deal (a race), or None before they begin one."""
    return Race.objects.filter(
        mode=Race.DAILY, daily_date=daily.date, entries__player_key=player_key
    ).first()


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
        heights=boards.INITIAL_HEIGHTS,
    )


# --- the socket's requests ------------------------------------------------------------


def connect(room, player_key, socket):
    """A socket opened: its player's presence mark, a solo race started, the snapshot."""
    with _locked(room) as (race, out, now):
        entry = _entry(race, player_key)
        if entry is not None:
            presence.refresh([(room, entry.pk, socket)])
            out.broadcast += attendance.apply(race, now, _event)
            if race.mode in Race.ALONE and race.status == Race.LOBBY:
                out.broadcast += _begin(race, now, delay=0)
            entry.refresh_from_db()
            out.player = entry.pk
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
    """Join (or rename yourself); the asking socket marks the player present from now on."""
    with _locked(room) as (race, out, now):
        entry = _entry(race, player_key)
        if entry is None:
            if race.status != Race.LOBBY:
                raise GameError("race_started", "this race has started; you can watch it")
            limit = 1 if race.mode in Race.ALONE else MAX_PLAYERS
            if race.entries.count() >= limit:
                raise GameError("race_full", f"this race has its {limit} player(s) already")
            entry = add_entry(race, player_key, name, connected=True)
        else:
            entry.name, entry.connected, entry.left_at = (
                accounts.shown_name(entry.user, name),
                True,
                None,
            )
            entry.save(update_fields=["name", "connected", "left_at"])
        presence.refresh([(room, entry.pk, socket)])
        out.broadcast.append(_event(race, frames.player_joined(race, entry)))
        out.reply.append(frames.state(race, entry, player_key, now))
        out.player = entry.pk
    return out


def start(room, player_key):
    with _locked(room) as (race, out, now):
        if player_key != race.host_key:
            raise GameError("not_host", "only the host starts the race")
        if race.status != Race.LOBBY:
            raise GameError("race_started", "this race has started already")
        # Players who left the lobby do not hold the race up until its time limit.
        race.entries.filter(connected=False).delete()
        if not race.entries.exists():
            raise GameError("no_players", "join the race before starting it")
        out.broadcast += _begin(race, now, delay=settings.HALFMOON_COUNTDOWN_S)
    return out


def start_now(room, delay):
    """Start a race that has no host to start it (a quick race): countdown of `delay` s."""
    with _locked(room) as (race, out, now):
        out.broadcast += _begin(race, now, delay)
    return out


def move(room, player_key, seq, slots):
    return _play(room, player_key, seq, Move.MOVE, list(slots))


def undo(room, player_key, seq):
    return _play(room, player_key, seq, Move.UNDO, [])


def resign(room, player_key):
    with _locked(room) as (race, out, now):
        entry = _player_entry(race, player_key)
        if race.status != Race.RUNNING:
            raise GameError("not_running", "the race is not running")
        if not entry.done:
            entry.status, entry.finished_at = Entry.RESIGNED, now
            entry.save(update_fields=["status", "finished_at"])
            frame = frames.progress(entry, seq=None, kind="resign", slots=[])
            out.broadcast.append(_event(race, frame))
            out.broadcast += _finish_if_all_done(race, now)
    return out


def rematch(room, player_key):
    """A new race on a new deal for the same players; asked twice, the same one."""
    with _locked(room) as (race, out, now):
        if race.status != Race.FINISHED:
            raise GameError("not_finished", "a rematch follows a finished race")
        entries = list(race.entries.all())
        if not _may_ask_rematch(race, entries, player_key):
            raise GameError("not_host", "only the host asks for a rematch")
        if race.rematch_id is None:
            mode = Race.SOLO if race.mode in Race.ALONE else Race.RACE
            race.rematch = create_race(random_deal(), player_key, mode=mode, deal_hidden=True)
            for entry in entries:
                add_entry(race.rematch, entry.player_key, entry.name)
            out.broadcast.append(_event(race, frames.rematch(race.rematch)))
        else:
            out.reply.append(frames.state(race, _entry(race, player_key), player_key, now))
    return out


def _may_ask_rematch(race, entries, player_key):
    """The host; or any player when there is no host (a quick race) or the host is gone."""
    if player_key == race.host_key:
        return True
    host = next((e for e in entries if e.player_key == race.host_key), None)
    member = any(e.player_key == player_key for e in entries)
    return member and (host is None or not host.connected)


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
        refusal = _refusal(race, entry, seq)
        if refusal:
            out.reply.append(frames.rejected(seq, *refusal))
            return out
        game = boards.games.take(entry, race.deal)
        try:
            result = game.remove(slots) if kind == Move.MOVE else game.undo()
        except IllegalMove as exc:
            boards.games.put(entry.pk, entry.seq, game)
            out.reply.append(frames.rejected(seq, exc.code, str(exc)))
            return out
        Move.objects.create(entry=entry, seq=seq, kind=kind, slots=list(result.slots), at=now)
        entry.seq, entry.score, entry.moves = seq, game.score, game.moves
        entry.undos += kind == Move.UNDO
        entry.cards_left, entry.status, entry.last_move_at = game.cards_left, game.status, now
        entry.heights = boards.heights(game)
        entry.finished_at = now if entry.status == Entry.WON else None
        entry.save(update_fields=_MOVE_FIELDS)
        transaction.on_commit(lambda: boards.games.put(entry.pk, seq, game))
        progress = _event(race, frames.progress(entry, seq, kind, list(result.slots)))
        out.reply.append(frames.moved(seq, kind, result, game, entry, progress["event"]))
        out.broadcast.append(progress)
        if entry.done:
            out.broadcast += _finish_if_all_done(race, now)
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


def _refusal(race, entry, seq):
    if race.status != Race.RUNNING:
        return "not_running", "the race is not running"
    if seq != entry.seq + 1:
        return "bad_seq", f"expected seq {entry.seq + 1}; send sync to catch up"
    if entry.done:
        return "game_over", "your game is over"
    return None


def _retried(race, entry, seq, kind, slots):
    """The same `moved` as the first time for a seq already accepted (a retry)."""
    stored = Move.objects.filter(entry=entry, seq=seq).first()
    if stored is None or stored.kind != kind or (kind == Move.MOVE and stored.slots != slots):
        return frames.rejected(seq, "bad_seq", f"seq {seq} was a different move; send sync")
    game = boards.replay(entry, race.deal, upto=seq - 1)
    result = game.remove(slots) if kind == Move.MOVE else game.undo()
    return frames.moved(seq, kind, result, game, entry)


# --- the clock and the end ------------------------------------------------------------


def _begin(race, now, delay):
    if delay > 0:
        race.status = Race.COUNTDOWN
        race.starts_at = now + timedelta(seconds=delay)
        players = list(race.entries.values_list("pk", flat=True))
        return [_event(race, frames.countdown(race, players))]
    race.status, race.starts_at = Race.COUNTDOWN, now
    return _advance(race, now, attend=False)


def _advance(race, now, attend):
    """The clock and, with `attend`, who is present (moves skip that: it is the hot
    path, and every other action and the sweeper apply it)."""
    changes = attendance.apply(race, now, _event) if attend else []
    if changes and race.status == Race.RUNNING:
        changes += _finish_if_all_done(race, now)
    if race.status == Race.COUNTDOWN and now >= race.starts_at:
        race.status, race.started_at = Race.RUNNING, race.starts_at
        # Whoever has no socket open at the start is not in the race: a quick-race
        # seat nobody took must not keep the others waiting for the time limit.
        race.entries.filter(connected=False).delete()
        race.entries.update(status=Game(race.deal.engine_deal()).status)
        changes.append(_event(race, frames.started(race)))
        changes += _finish_if_all_done(race, now)
    if race.status == Race.RUNNING and now >= race.ends_at:
        # Applied lazily, perhaps long after: the time ran out at ends_at, not now.
        ended = race.ends_at
        race.entries.exclude(status__in=Entry.DONE).update(
            status=Entry.TIMED_OUT, finished_at=ended
        )
        changes += _finish(race, ended)
    return changes


def _finish_if_all_done(race, now):
    if race.entries.exclude(status__in=Entry.DONE).exists():
        return []
    last = race.entries.aggregate(last=Max("finished_at"))["last"]
    return _finish(race, min(now, last) if last else now)


def _finish(race, now):
    """The race is over: every result is judged (game/fairplay.py), then announced."""
    race.status, race.finished_at = Race.FINISHED, now
    fairplay.judge(race)
    return [_event(race, frames.finished(race))]


# --- plumbing -------------------------------------------------------------------------


class _locked:
    """`with _locked(room) as (race, out, now)`: one transaction, the race row locked,
    the clock applied first, the race saved at the end if any broadcast changed it."""

    def __init__(self, room, attend=True):
        self.room, self.attend = room, attend
        self.atomic = transaction.atomic()

    def __enter__(self):
        self.atomic.__enter__()
        try:
            race = (
                Race.objects.select_for_update(of=("self",))
                .select_related("deal")
                .get(room=self.room)
            )
        except Race.DoesNotExist:
            self.atomic.__exit__(None, None, None)
            raise GameError("no_such_race", f"no race {self.room[:8]!r}") from None
        except BaseException as exc:
            self.atomic.__exit__(type(exc), exc, exc.__traceback__)
            raise
        now = timezone.now()
        self.race, self.event = race, race.event
        self.out = Outcome(broadcast=_advance(race, now, self.attend))
        return race, self.out, now

    def __exit__(self, kind, exc, tb):
        if kind is None and self.race.event != self.event:
            self.race.save(update_fields=_RACE_FIELDS)
        return self.atomic.__exit__(kind, exc, tb)


_RACE_FIELDS = ["status", "event", "host_key", "starts_at", "started_at", "finished_at", "rematch"]


def _event(race, frame):
    race.event += 1
    frame["event"] = race.event
    return frame


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
