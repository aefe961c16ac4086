"""
A rated race's results move its accounts' ratings (Glicko-2: game/ratings/), once
the fair-play checks passed them.

`settle` is called when a race finishes (game/race/clock.py, after
`fairplay.judge`) and again after every staff decision on one of its results
(`fairplay.decide`). It does nothing while a result is still flagged: a flagged
race changes nobody's rating until staff decide. Each time, the race is rated
from its players' ratings before it (stored on each `RatingChange`), leaving out
any player disqualified; the difference to what was applied before is applied
now. So a disqualification after the ratings moved gives the opponents their
points back (and takes the cheater's), and a race rated once is never rated twice.

Two accounts' rated games against each other count at most
HALFMOON_RATED_PAIR_DAILY times a UTC day (`RatedPair`): a second account fed
wins does not climb. A pair over the cap is left out of the race's rating.
"""

from django.conf import settings
from django.db import transaction
from django.db.models import F

from game.base import rank_counts
from game.models import Account, Entry, RatedPair, RatingChange
from game.players import ratings as player_ratings
from game.ratings import glicko2, pairs, ranks


def settle(race):
    """Rate (or rate again) a finished rated race; nothing while a result is flagged."""
    if not race.rated or race.finished_at is None:
        return
    entries = list(race.entries.filter(user__isnull=False).order_by("pk"))
    if any(entry.review == Entry.FLAGGED for entry in entries):
        return
    with transaction.atomic(), rank_counts.collected():
        accounts = {
            account.user_id: account
            for account in Account.objects.select_for_update()
            .filter(user_id__in=[entry.user_id for entry in entries])
            .order_by("pk")
        }
        rows = {row.entry_id: row for row in RatingChange.objects.filter(race=race)}
        before = {entry.pk: _before(race, entry, rows, accounts) for entry in entries}
        playing = [entry for entry in entries if entry.review != Entry.DISQUALIFIED]
        played = _games(race, playing)
        for entry in entries:
            games = [(before[other], score) for other, score in played.get(entry.pk, [])]
            after = glicko2.rate(before[entry.pk], games) if games else before[entry.pk]
            _store(race, entry, rows.get(entry.pk), before[entry.pk], after, games, accounts)


def _before(race, entry, rows, accounts):
    """The player's rating before this race: as stored once rated, else their current,
    the deviation grown by the days since their last rated race (and so applied)."""
    row = rows.get(entry.pk)
    if row is not None:
        return glicko2.Rating(row.rating_before, row.deviation_before, row.volatility_before)
    account = accounts[entry.user_id]
    now = player_ratings.current(account, race.finished_at)
    account.deviation = now.deviation
    return now


def _games(race, playing):
    """{entry pk: [(opponent's entry pk, score)]}, each pair once, the day's cap applied;
    the pairs counted are stored (`RatedPair`) in place of any this race had."""
    day = race.finished_at.date()
    users = {entry.pk: entry.user_id for entry in playing}
    RatedPair.objects.filter(race=race).delete()
    counted = []

    def counts(a, b):
        low, high = sorted((users[a], users[b]))
        earlier = RatedPair.objects.filter(low_id=low, high_id=high, day=day).count()
        if low == high or earlier >= settings.HALFMOON_RATED_PAIR_DAILY:
            return False
        counted.append(RatedPair(race=race, day=day, low_id=low, high_id=high))
        return True

    results = {entry.pk: pair_result(entry) for entry in playing}
    played = pairs.games(results, counts)
    RatedPair.objects.bulk_create(counted)
    return played


def pair_result(entry):
    """What the pairwise rule (game/ratings/pairs.py) reads of a finished entry."""
    return pairs.Result(
        won=entry.status == Entry.WON,
        abandoned=entry.status == Entry.ABANDONED,
        time_ms=entry.time_ms,
        score=entry.score,
        moves=entry.moves,
    )


def _store(race, entry, row, before, after, games, accounts):
    """Apply the player's new `after` (the difference to what `row` applied before)."""
    if row is None and not games:
        return
    account = accounts[entry.user_id]
    boards = account.counted_on()
    if row is None:
        row = RatingChange(entry=entry, race=race, user_id=entry.user_id, at=race.finished_at)
        row.rating_before, row.deviation_before, row.volatility_before = (
            before.rating,
            before.deviation,
            before.volatility,
        )
        applied, was_counted = before, False
        account.rated_at = race.finished_at
    else:
        applied = glicko2.Rating(row.rating_after, row.deviation_after, row.volatility_after)
        was_counted = row.counted
    shift = after.rating - applied.rating
    account.rating += shift
    account.deviation = _within(account.deviation + after.deviation - applied.deviation)
    account.volatility += after.volatility - applied.volatility
    scores = [score for _, score in games]
    row.wins, row.losses, row.draws = scores.count(1.0), scores.count(0.0), scores.count(0.5)
    row.rating_after, row.deviation_after, row.volatility_after = (
        after.rating,
        after.deviation,
        after.volatility,
    )
    account.rated_games += int(row.counted) - int(was_counted)
    if row.pk is not None and shift:  # later games started from a rating this one moved
        later = RatingChange.objects.filter(user_id=entry.user_id, at__gt=row.at)
        later.update(
            rating_before=F("rating_before") + shift, rating_after=F("rating_after") + shift
        )
    row.save()
    account.save(update_fields=["rating", "deviation", "volatility", "rated_games", "rated_at"])
    rank_counts.moved(boards, account.counted_on())


def _within(deviation):
    return min(max(deviation, glicko2.MIN_DEVIATION), glicko2.START[1])


def lines(race):
    """{entry pk: what the end dialog shows of its rating}, for a rated race: the new
    rating and its change, or `pending` while staff have a flagged result to decide."""
    if not race.rated or race.finished_at is None:
        return {}
    entries = list(race.entries.filter(user__isnull=False).select_related("user__account"))
    if any(entry.review == Entry.FLAGGED for entry in entries):
        return {entry.pk: {"pending": True} for entry in entries}
    rows = {row.entry_id: row for row in RatingChange.objects.filter(race=race)}
    out = {}
    for entry in entries:
        row, account = rows.get(entry.pk), entry.user.account
        if row is None or not row.counted:
            rating, deviation, change = account.rating, player_ratings.current(account).deviation, 0
        else:
            rating, deviation = row.rating_after, row.deviation_after
            change = round(row.rating_after) - round(row.rating_before)
        out[entry.pk] = {
            "rating": round(rating),
            "change": change,
            "provisional": ranks.provisional(deviation),
            "counted": row is not None and row.counted,
        }
    return out
