"""
The quick-race queue: strangers put into a race of up to 8 that starts by itself.

The queue lives in the database (`QuickSeat`), so players polling different
processes wait in the same line. Each poll refreshes the player's seat and, in
one transaction, seats a race when it is time: 8 waiting at once, 3 or more
once the first has waited HALFMOON_QUICK_WAIT_S, or 2 once the first has waited
HALFMOON_QUICK_WAIT_PAIR_S. The race goes straight into its countdown,
HALFMOON_QUICK_SHOW_S, the time its players have to poll, open the race and
connect.

An account may wait for a rated race instead (`rated`), in a line of its own:
players are matched by rating, each accepting ratings within ±HALFMOON_RATED_WINDOW
of their own, wider by HALFMOON_RATED_WIDEN every HALFMOON_RATED_WIDEN_S they
wait, in races of 2 to HALFMOON_RATED_MAX_PLAYERS on the same clock as the
casual line's (game/results/rated.py rates them), never two accounts of which one
blocked the other (a block kept neither a feeder nor a pest out). Guests race
casual only.

A seat is kept only by a player who comes: whoever has no socket open when the
countdown ends is dropped from the race (game/race/clock.py), and a race left
with fewer than two is called off. Those who came go back to the front of the
line; a no-show is not seated again for HALFMOON_QUICK_NO_SHOW_S. Sessions that
polled and never connected used to fill the races and leave every real player
racing alone. A seat points to its race until its player queues again, so the
queue knows who came.

Polls are serialized across processes by one advisory lock on the queue, taken
first in every transaction that changes it: each poll used to lock the seats it
touched in its own order (the stale ones, its own, the waiting ones), and
concurrent polls deadlocked (19 of 64 answered 500). A race's lock is never
waited for under the queue's: the countdown's end is applied before it.
"""

from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from game.base.errors import GameError
from game.deals import codes
from game.models import Account, Entry, QuickSeat, Race
from game.players import identity, trust
from game.race import actions, refusals
from game.realtime import broadcast

QUEUE_LOCK = 0x48_4D_51_52
"""The advisory lock of the queue ("HMQR"), the same on every process."""


def poll(player_key, name, rated=False):
    """Wait in (or keep waiting in) the queue, casual or `rated` (an account's only):
    {"room": ...} once placed, else {"waiting": n} and, rated, the "window" of
    ratings searched."""
    rating = _rating_of(player_key) if rated else 1500.0
    _settle_countdown(player_key)
    now = timezone.now()
    with transaction.atomic():
        _lock_queue()
        sweep(now)
        seat, _ = QuickSeat.objects.select_for_update().get_or_create(
            player_key=player_key,
            defaults={"name": name, "since": now, "seen_at": now, "rated": rated},
        )
        if seat.race_id is not None and (placed := _placed(seat, now)) is not None:
            return placed
        if seat.rated != rated:
            seat.since = now  # another line: its wait starts again
        seat.name, seat.seen_at, seat.rated, seat.rating = name, now, rated, rating
        seat.save(update_fields=["name", "seen_at", "since", "race", "rated", "rating"])
        waiting = list(QuickSeat.objects.select_for_update().filter(race__isnull=True, rated=rated))
        seated = _rated_group(waiting, now) if rated else _casual_group(waiting, now)
        if seated:
            race = _seat_race(seated, now, rated)
            if seat in seated:
                return {"room": race.room}
        return _answer(seat, now)


def _rating_of(player_key):
    """The rating an account queues with; a guest may not wait for a rated race."""
    account = Account.objects.filter(player_key=player_key).first()
    if account is None:
        raise GameError("rated_needs_account", "rated races are for accounts: log in")
    return account.rating


def _answer(seat, now):
    """What a waiting player sees: how many wait in their line (and the window searched)."""
    answer = {"waiting": _waiting(seat.rated)}
    if seat.rated:
        low, high = window(seat, now)
        answer["window"] = [round(low), round(high)]
    return answer


def window(seat, now):
    """The ratings a rated seat accepts: ±HALFMOON_RATED_WINDOW, widened by
    HALFMOON_RATED_WIDEN every HALFMOON_RATED_WIDEN_S it has waited."""
    waited = max(0.0, (now - seat.since).total_seconds())
    steps = int(waited // settings.HALFMOON_RATED_WIDEN_S)
    width = settings.HALFMOON_RATED_WINDOW + settings.HALFMOON_RATED_WIDEN * steps
    return seat.rating - width, seat.rating + width


def _accepts(seat, other, now):
    low, high = window(seat, now)
    return low <= other.rating <= high


def _casual_group(waiting, now):
    return waiting[: refusals.MAX_PLAYERS] if _time_to_go(waiting, now) else None


def _rated_group(waiting, now):
    """The first rated race due: from the longest waiting, the others each of whose
    windows holds every other's rating (in the order they came), up to
    HALFMOON_RATED_MAX_PLAYERS, no two of them with a block between them; None while
    no such group may go yet."""
    most = settings.HALFMOON_RATED_MAX_PLAYERS
    apart = trust.kept_apart([seat.player_key for seat in waiting])
    for index, first in enumerate(waiting):
        group = [first]
        for other in waiting[index + 1 :]:
            fits = all(
                _accepts(s, other, now)
                and _accepts(other, s, now)
                and frozenset((s.player_key, other.player_key)) not in apart
                for s in group
            )
            if fits and len(group) < most:
                group.append(other)
        if _time_to_go(group, now, most):
            return group
    return None


def _settle_countdown(player_key):
    """End the countdown of the player's race if it is due, so that the queue knows
    who came even when nobody's socket is there to do it."""
    now = timezone.now()
    due = QuickSeat.objects.filter(
        player_key=player_key, race__status=Race.COUNTDOWN, race__starts_at__lte=now
    )
    room = due.values_list("race__room", flat=True).first()
    if room is not None:
        broadcast.publish_outcome(room, actions.tick(room))


def sweep(now):
    """Forget the waiting seats whose players stopped polling, and the seats of races
    that began longer ago than a no-show is kept out."""
    stale = now - timedelta(seconds=settings.HALFMOON_QUICK_STALE_S)
    old = now - timedelta(seconds=settings.HALFMOON_QUICK_NO_SHOW_S)
    gone = Q(race__isnull=True, seen_at__lt=stale) | Q(race__starts_at__lt=old)
    QuickSeat.objects.filter(gone).delete()


def _placed(seat, now):
    """A seated player's answer: their race while they are in it, "waiting" for a
    no-show who is kept out; None when they are back in the line (`seat` changed)."""
    race = seat.race
    came = Entry.objects.filter(race=race, player_key=seat.player_key).exists()
    if came and race.status != Race.FINISHED:
        return {"room": race.room}
    kept_out = timedelta(seconds=settings.HALFMOON_QUICK_NO_SHOW_S)
    if not came and now < race.starts_at + kept_out:
        return _answer(seat, now)
    seat.race, seat.since = None, now
    if came and race.started_at is None:  # called off: they came, the others did not
        seat.since = race.created_at - timedelta(seconds=settings.HALFMOON_QUICK_WAIT_PAIR_S)
    return None


def _waiting(rated):
    return QuickSeat.objects.filter(race__isnull=True, rated=rated).count()


def leave(player_key):
    with transaction.atomic():
        _lock_queue()
        QuickSeat.objects.filter(player_key=player_key, race__isnull=True).delete()


def _lock_queue():
    """Wait for the queue, held until the transaction ends (SQLite's transactions
    are serialized already: it takes its write lock up front)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [QUEUE_LOCK])


def _time_to_go(waiting, now, most=refusals.MAX_PLAYERS):
    if len(waiting) >= most:
        return True
    waited = (now - waiting[0].since).total_seconds() if waiting else 0
    if len(waiting) >= 3:
        return waited >= settings.HALFMOON_QUICK_WAIT_S
    return len(waiting) == 2 and waited >= settings.HALFMOON_QUICK_WAIT_PAIR_S


def _seat_race(seats, now, rated):
    race = actions.create_race(codes.random_deal(), host_key="", mode=Race.QUICK, deal_hidden=True)
    if rated:
        Race.objects.filter(pk=race.pk).update(rated=True)
    for number, seat in enumerate(seats, start=1):
        actions.add_entry(race, seat.player_key, identity.numbered(seat.name, number))
    QuickSeat.objects.filter(pk__in=[seat.pk for seat in seats]).update(race=race)
    countdown = actions.start_now(race.room, delay=settings.HALFMOON_QUICK_SHOW_S)
    broadcast.publish_outcome(race.room, countdown)
    return race
