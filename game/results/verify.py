"""
A verified #1: the day's top results are replayed on the server before they show as final.

The fair-play checks (game/results/fairplay.py) read a game's clock and line; they
cannot tell a bot playing a line of its own on a person's clock from a person
(docs/fair-play.md, bench/fairplay_rates.py). So, as TETR.IO gives "#1" only after
replaying the run and TypeRacer makes an outlier prove its pace live, the top
`TOP` wins of a day's ranked board are checked once each, whenever one enters it
(`verify_day`, run when a daily result is judged):

- **replay**: the stored moves (`move_log.rows`, live or packed) are played through
  the engine; the game they make must be the stored result: its status, score,
  moves, cards left, undos, last seq and time. A mismatch (a result written by
  anything but the move path) is held for staff (`Entry.HELD_REPLAY`);
- **pace**: a win faster than `HALFMOON_VERIFY_FRACTION` of the median of the
  player's last `HALFMOON_VERIFY_HISTORY` ranked daily wins (with at least
  `HALFMOON_VERIFY_MIN_HISTORY` of them) is held (`Entry.HELD_PACE`) until the
  player wins a verification deal (`start`: a random numbered deal, hidden, never a
  day's or an event's, played alone and unranked) at a comparable pace — no more
  than `HALFMOON_VERIFY_PACE_SLACK` times the held win's time a move, and not
  flagged — or staff confirm it (`fairplay.decide`).

Once the day is over, the first read of its board replays its top once more
(`final_check`): a stored result edited after it was verified is held before the
board is final.

An event's top 3 are replayed the same way before its final ranks are stored
(game/events/standings.py): a game its moves do not make is held and counts
nothing, and the next player moves up.

A held result is flagged: it leaves the ranked board (the next win moves up and is
checked in turn) and waits in the staff's list of flagged results. A result that
passes is `Entry.VERIFIED`, and the board marks it.
"""

import statistics

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game.base import days
from game.deals import codes
from game.engine import WON, Game, IllegalMove
from game.models import DailyDeal, Entry, Move
from game.results import games, move_log, records
from game.results.standings import WIN_ORDER, order_by, since_start
from game.solver.verdicts import analyse_deal_row

TOP = 3
"""How many of a day's first wins are verified."""
ROUNDS = 10
"""At most this many passes over a day's top (each held result lets the next one in)."""
SOLVE_S = 1.0
"""The solver's budget to prove a verification deal winnable."""


def top_of(date):
    """The first `TOP` wins of a day's ranked board."""
    wins = Entry.objects.filter(daily_date=date, ranked=True, status=Entry.WON)
    return list(wins.select_related("race__deal").order_by(*order_by(WIN_ORDER))[:TOP])


def verify_day(date, again=False):
    """Check each result of the day's top not checked yet, until the top is all verified;
    `again`: replay the verified ones once more too (`final_check`)."""
    replayed = set()
    for _ in range(ROUNDS):
        top = top_of(date)
        pending = [
            entry
            for entry in top
            if entry.verification == Entry.UNVERIFIED or (again and entry.pk not in replayed)
        ]
        if not pending:
            return
        for entry in pending:
            replayed.add(entry.pk)
            if entry.verification == Entry.UNVERIFIED:
                check(entry)
            elif not replays_to(entry):
                hold(entry, Entry.HELD_REPLAY)


def final_check(day):
    """Once a day is over, replay its top once more before its board is final: a stored
    result changed after it was verified (written to the database by anything but a
    move) is held then. Once a day (`DailyDeal.top_checked_at`), by whoever reads its
    board first."""
    if day.top_checked_at is not None or day.date >= days.today():
        return
    with transaction.atomic():
        locked = DailyDeal.objects.select_for_update().get(date=day.date)
        if locked.top_checked_at is None:
            verify_day(day.date, again=True)
            locked.top_checked_at = timezone.now()
            locked.save(update_fields=["top_checked_at"])


def check(entry):
    """Verify one result, or hold it: what its replay and its pace say."""
    if not replays_to(entry):
        hold(entry, Entry.HELD_REPLAY)
    elif outlier(entry):
        hold(entry, Entry.HELD_PACE)
    else:
        entry.verification = Entry.VERIFIED
        entry.save(update_fields=["verification"])


def replays_to(entry):
    """Whether the entry's stored moves, played through the engine, make its stored result
    (a win's time too: a game not won has no time of its own)."""
    made = replayed(entry)
    if made is None:
        return False
    won = entry.status == Entry.WON
    stored = (won, entry.score, entry.moves, entry.cards_left, entry.undos, entry.seq)
    return made == (*stored, entry.time_ms if won else made[-1])


def check_games(players):
    """Replay an event player's games (`players`: their entries): each whose moves do not
    make it is held; whether any was."""
    held = False
    for player in players:
        if player.verification in Entry.HELD:
            continue
        if replays_to(player):
            player.verification = Entry.VERIFIED
            player.save(update_fields=["verification"])
        else:
            hold(player, Entry.HELD_REPLAY)
            held = True
    return held


def replayed(entry):
    """What the entry's stored moves make: (won, score, moves, cards left, undos, last
    seq, time of the last in ms); None if one of them is no legal move."""
    rows = move_log.rows(entry)
    game = Game(entry.race.deal.engine_deal())
    try:
        for row in rows:
            games.apply(game, row.kind, row.slots)
    except IllegalMove:
        return None
    last = rows[-1] if rows else None
    return (
        game.status == WON,
        game.score,
        game.moves,
        game.cards_left,
        sum(1 for row in rows if row.kind == Move.UNDO),
        last.seq if last else 0,
        since_start(entry.race, last.at) if last else None,
    )


def history_ms(entry):
    """The times of the player's last ranked daily wins before this one's day."""
    wins = Entry.objects.filter(
        user_id=entry.user_id, ranked=True, status=Entry.WON, daily_date__lt=entry.daily_date
    ).exclude(time_ms=None)
    latest = wins.order_by("-daily_date").values_list("time_ms", flat=True)
    return list(latest[: settings.HALFMOON_VERIFY_HISTORY])


def outlier(entry):
    """Whether a win is far faster than the player's own history (never without one)."""
    return is_outlier(entry.time_ms, history_ms(entry))


def is_outlier(time, history):
    """Whether `time` is under `HALFMOON_VERIFY_FRACTION` of the median of `history`
    (times of earlier wins, newest first), given enough of them."""
    if time is None or len(history) < settings.HALFMOON_VERIFY_MIN_HISTORY:
        return False
    return time < settings.HALFMOON_VERIFY_FRACTION * statistics.median(history)


def held_reasons(entry):
    """Why a result is held, as the staff's list of flagged results says it: `held_replay`
    (its moves do not make it) or `held_pace` (far faster than its player's history)."""
    return [f"held_{entry.verification}"] if entry.verification in Entry.HELD else []


def hold(entry, why):
    """Hold a result: flagged, off the ranked board, waiting for staff or a verification."""
    entry.verification, entry.review, entry.ranked = why, Entry.FLAGGED, False
    entry.save(update_fields=["verification", "review", "ranked"])
    records.refresh_entries([entry])


def judged(race, entries):
    """After a race's results are judged: each day a ranked win was added to has its top
    verified, and a verification deal's result releases its held win or not."""
    for date in {entry.daily_date for entry in entries if entry.ranked and entry.daily_date}:
        verify_day(date)
    if race.verifies_id is not None:
        settle(race, entries)


def settle(race, entries):
    """A verification deal is over: its win, by the held result's player, unflagged and at
    a comparable pace, releases the held win (verified, ranked again)."""
    held = race.verifies
    mine = [entry for entry in entries if entry.user_id == held.user_id]
    if held.verification == Entry.HELD_PACE and mine and comparable(mine[0], held):
        release(held)


def comparable(entry, held):
    """Whether a verification deal's result shows the held win's pace: won, unflagged, and
    no more than `HALFMOON_VERIFY_PACE_SLACK` times its time a move."""
    if entry.status != Entry.WON or entry.review != Entry.CLEAN:
        return False
    return same_pace(entry.time_ms, entry.moves, held.time_ms, held.moves)


def same_pace(time, moves, held_time, held_moves):
    """Whether a win of `moves` moves in `time` is no slower a move than
    `HALFMOON_VERIFY_PACE_SLACK` times a held win's (`held_time` over `held_moves`)."""
    slack = settings.HALFMOON_VERIFY_PACE_SLACK
    return moves > 0 and time / moves <= slack * held_time / held_moves


def release(held):
    """A held win verified (its pace shown, or staff confirmed it): ranked again."""
    held.verification, held.review, held.ranked = Entry.VERIFIED, Entry.CLEAN, True
    held.save(update_fields=["verification", "review", "ranked"])
    records.refresh_entries([held])
    verify_day(held.daily_date)


def waiting(user):
    """The account's win held for its pace, the latest, or None: what a verification deal is
    for (never an anonymous visitor's: only accounts rank)."""
    if not user.is_authenticated:
        return None
    held = Entry.objects.filter(user=user, verification=Entry.HELD_PACE)
    return held.order_by("-daily_date").first()


def unseen_deal(tries=20):
    """A random numbered deal nobody has seen (never a day's, an event's or any game's),
    proven winnable by the solver: one a person can show their pace on; None when
    `tries` draws found none within the solver's budget (the page says to try again)."""
    for _ in range(tries):
        deal = codes.random_deal()
        if seen(deal):
            continue
        if deal.verdict is None:
            deal = analyse_deal_row(deal, SOLVE_S)
        if deal.verdict == "winnable":
            return deal
    return None


def seen(deal):
    """Whether anyone may have seen `deal`: a day's deal, an event's, or any game's."""
    if deal.races.exists() or deal.event_deals.exists():
        return True
    return DailyDeal.objects.filter(Q(deal=deal) | Q(guest_deal=deal)).exists()
