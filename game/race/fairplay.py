"""
Result checks: the server judges every finished game from its stored moves.

Like Monkeytype's, the checks look at what a script cannot hide: the server's
own clock and the line it played. Every accepted move is stored with the instant
the server took it (`Move.at`), so a win that does not look like a person playing
is **flagged**. The player still sees their result; it never counts on a ranked
board; staff confirm or disqualify it in the admin (`Review`, the log of who
decided what and why).

A win is flagged for any of these reasons (`reasons`; settings HALFMOON_FLAG_*):

- `too_quick`: the whole win took less than 20 s;
- `fast_moves`: the median gap between moves (from the start) is under 0.4 s;
- `steady`: the gaps between moves hardly vary (coefficient of variation under
  0.25): a person's think times spread out, a paced script's do not;
- `no_look`: the first move came within 0.8 s of the start and no gap reached 2 s:
  a person looks at the twenty tops before the first pair, and stops to think
  somewhere in a whole game;
- `solver_line`: 70% of the game's line is the solver's own line for the deal,
  in its order (a person's lines share 15-35% with it);
- `peeks`: more than 10 moves were taken back by the very next action — undos
  used to look under cards. In an event, the peeks under the same deal by the
  event's other entries from the same address (a spare cookie exploring the deal
  for the real entry) count as the entry's own (`scouted_peeks`).

Why these, and how often each catches a person or a paced script
(bench/fairplay_rates.py): docs/fair-play.md.
"""

import dataclasses
import statistics
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from game.deals import daily
from game.leagues import members
from game.models import Entry, EventGame, Move, Review
from game.race import move_log, rated, records, verify
from game.race.standings import time_ms

MIN_GAPS = 10
"""Fewer gaps than this say nothing about their spread."""


@dataclass(frozen=True)
class Tempo:
    """A won game as the checks read it: its clock and its line."""

    win_s: float
    first_s: float
    """From the start to the first move (or undo)."""
    gaps: tuple
    """Seconds between one move (or undo) and the next, after the first."""
    peeks: int
    """Moves taken back by the very next action."""
    solver_share: float | None
    """The share of the game's line that is the solver's line, in order; None unknown."""


def judge(race):
    """Judge every result of a race that has just finished: time, verdict, ranked."""
    entries = list(race.entries.all())
    for entry in entries:
        entry.time_ms = time_ms(entry)
        entry.review = Entry.FLAGGED if too_fast(entry) else Entry.CLEAN
        entry.ranked = rankable(entry) and entry.review in Entry.COUNTED
        entry.save(update_fields=["time_ms", "review", "ranked"])
    records.refresh_entries(entries)
    verify.judged(race, entries)


def rankable(entry):
    """Whether a result may count on a ranked board once judged clean or confirmed: an
    account's, and for a daily attempt one on the day's ranked deal (not the guests')."""
    if entry.user_id is None:
        return False
    return entry.daily_date is None or daily.on_ranked_deal(entry.race)


def too_fast(entry):
    """Whether a win does not look like a person playing (never for a game not won)."""
    return entry.status == Entry.WON and bool(reasons(tempo_of(entry)))


def tempo_of(entry):
    """The `Tempo` of an entry's game, from its stored moves and its deal's solver line."""
    start = entry.race.started_at
    rows = move_log.rows(entry)
    played = [((row.at - start).total_seconds(), row.kind, row.slots) for row in rows]
    found = tempo(played, (entry.time_ms or 0) / 1000, entry.race.deal.winning_line)
    return dataclasses.replace(found, peeks=found.peeks + scouted_peeks(entry))


def scouted_peeks(entry):
    """For an event's game: the peeks under its deal in the games of the event's other
    entries that joined from the same address (game/base/clients.py `tag`); else 0."""
    game = EventGame.objects.filter(race_id=entry.race_id).select_related("entry").first()
    if game is None or not game.entry.address_tag:
        return 0
    spares = Entry.objects.filter(
        race__deal_id=entry.race.deal_id,
        race__event_game__entry__event_id=game.entry.event_id,
        race__event_game__entry__address_tag=game.entry.address_tag,
    ).exclude(race__event_game__entry_id=game.entry_id)
    logs = move_log.rows_for(list(spares))
    return sum(peek_count([row.kind for row in log]) for log in logs.values())


def peek_count(kinds):
    """Moves taken back by the very next action, in a game's `kinds` of move in order."""
    return sum(1 for pair in zip(kinds, kinds[1:], strict=False) if pair == (Move.MOVE, Move.UNDO))


def tempo(played, win_s, solver_line=None):
    """The `Tempo` of a game: `played` is (seconds since the start, kind, slots) of each
    stored move and undo in order; `solver_line` the solver's winning line of the deal."""
    times = [at for at, _, _ in played]
    gaps = tuple(later - earlier for earlier, later in zip(times, times[1:], strict=False))
    peeks = peek_count([kind for _, kind, _ in played])
    share = _shared(final_line(played), solver_line) if solver_line else None
    return Tempo(win_s, times[0] if times else win_s, gaps, peeks, share)


def final_line(played):
    """The moves left on the table at the end (an undo takes back the last one)."""
    line = []
    for _, kind, slots in played:
        if kind == Move.UNDO:
            line.pop()
        else:
            line.append(frozenset(slots))
    return line


def _shared(line, solver_line):
    """The longest common subsequence of two lines, as a share of the first."""
    other = [frozenset(move) for move in solver_line]
    previous = [0] * (len(other) + 1)
    for move in line:
        current = [0]
        for index, theirs in enumerate(other):
            same = previous[index] + 1 if move == theirs else 0
            current.append(max(same, previous[index + 1], current[index]))
        previous = current
    return previous[-1] / len(line) if line else 0.0


def reasons(t):
    """Why a won game with tempo `t` is flagged: a list of reason codes, empty if none."""
    found = []
    if t.win_s < settings.HALFMOON_FLAG_MIN_WIN_S:
        found.append("too_quick")
    if median_gap_s(t) < settings.HALFMOON_FLAG_MEDIAN_GAP_S:
        found.append("fast_moves")
    if len(t.gaps) >= MIN_GAPS and spread(t.gaps) < settings.HALFMOON_FLAG_MIN_CV:
        found.append("steady")
    longest = max(t.gaps, default=0.0)
    if t.first_s < settings.HALFMOON_FLAG_FIRST_MOVE_S and longest < settings.HALFMOON_FLAG_PAUSE_S:
        found.append("no_look")
    if t.solver_share is not None and t.solver_share >= settings.HALFMOON_FLAG_SOLVER_SHARE:
        found.append("solver_line")
    if t.peeks > settings.HALFMOON_FLAG_PEEKS:
        found.append("peeks")
    return found


def spread(gaps):
    """The coefficient of variation of the gaps: their standard deviation over their mean."""
    mean = statistics.fmean(gaps)
    return statistics.pstdev(gaps) / mean if mean > 0 else 0.0


def median_gap_s(t):
    """The median time between one move (or undo) and the next, counted from the start."""
    return statistics.median([t.first_s, *t.gaps])


def decide(entry, staff, decision, reason):
    """A staff decision on a result, logged with who and why; a confirmed account's
    result counts again (verified, held or not: game/race/verify.py), a
    disqualified one never, and the day's top is verified again. A rated race (or a rated event
    once over) is rated again (game/race/rated.py): a confirmed result's ratings move,
    a disqualified one's are given back."""
    with transaction.atomic():
        Review.objects.create(entry=entry, staff=staff, decision=decision, reason=reason)
        entry.review = decision
        entry.ranked = rankable(entry) and decision == Entry.CONFIRMED
        if decision == Entry.CONFIRMED:
            entry.verification = Entry.VERIFIED  # staff's word stands for a replay
        entry.save(update_fields=["review", "ranked", "verification"])
        records.refresh_entries([entry])
        rated.decided(entry.race)
        members.note_race(entry.race)
        if entry.daily_date:
            verify.verify_day(entry.daily_date)
