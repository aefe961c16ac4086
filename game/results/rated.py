"""
A rated race's results, and a rated event's final standings, move their accounts'
ratings (Glicko-2: game/ratings/), once the fair-play checks passed them.

`settle` is called when a race finishes (game/race/clock.py, after
`fairplay.judge`) and again after every staff decision on one of its results
(`fairplay.decide`, through `decided`). It does nothing while a result is still
flagged: a flagged race changes nobody's rating until staff decide. Each time, the
race is rated from its players' ratings before it (stored on each `RatingChange`),
leaving out any player disqualified; the difference to what was applied before is
applied now. So a disqualification after the ratings moved gives the opponents their
points back (and takes the cheater's), and a race rated once is never rated twice.

`settle_event` rates a rated event's final standings the same way, as one rating
period, each account against its neighbours in them (game/ratings/pairs.py
`neighbours`). It is called once the final ranks are stored (game/events/standings.py
`finish`, in the same transaction, under the event's row lock) and again after every
staff decision on one of the event's games. Left out: an account with no finished
game, and one with a game flagged (until staff confirm it: the event is then rated
again with it) or disqualified (rated again without it). Unlike a race, the others
are rated at once: an event's two thousand ratings do not wait for one review.

Two accounts' rated games against each other count at most
HALFMOON_RATED_PAIR_DAILY times a UTC day (`RatedPair`): a second account fed
wins does not climb. A pair over the cap is left out of the race's rating (an
event counts as one game for each pair of neighbours it compares). That cap alone
let several fed accounts lift a farmer to #1, so a race also obeys the rules against
farming (game/results/farming.py): no rating for a race of seconds or a player who gave
up before ten moves, damped gains against provisional and young accounts, a day's cap
on gains against new or same-address ones.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Q, QuerySet

from game.models import (
    Account,
    Entry,
    Event,
    EventEntry,
    Race,
    RatedPair,
    RatingChange,
    rank_counts,
)
from game.players import player_ratings
from game.ratings import glicko2, pairs, ranks
from game.results import farming

CHANGE_FIELDS = [
    "wins",
    "losses",
    "draws",
    "rating_after",
    "deviation_after",
    "volatility_after",
    "capped",
]
"""What rating a period again changes on a `RatingChange` stored before."""
ACCOUNT_FIELDS = ["rating", "deviation", "volatility", "rated_games", "rated_at"]


@dataclass(frozen=True)
class Period:
    """One rating period as this module rates it: a rated race or a rated event."""

    at: datetime
    """When it ended: the date of its ratings, and the day its pairs count in."""
    players: list
    """Its accounts' results (`Entry` or `EventEntry`: a `pk` and a `user_id`)."""
    changes: QuerySet
    """Its `RatingChange`s, read once the accounts are locked."""
    key: str
    """The `RatingChange` field naming a player: "entry_id" or "event_entry_id"."""
    owner: dict
    """What its `RatedPair`s belong to: {"race": race} or {"event": event}."""
    new_change: Callable
    """A player's first `RatingChange`."""
    guarded: bool = False
    """Whether the rules against farming damp and cap its gains (game/results/farming.py):
    a race's, not an event's (its standings compare each with their neighbours)."""


def settle(race):
    """Rate (or rate again) a finished rated race; nothing while a result is flagged."""
    if not race.rated or race.finished_at is None:
        return
    entries = list(race.entries.filter(user__isnull=False).order_by("pk"))
    if any(entry.review == Entry.FLAGGED for entry in entries):
        return
    period = Period(
        at=race.finished_at,
        players=entries,
        changes=RatingChange.objects.filter(race=race),
        key="entry_id",
        owner={"race": race},
        new_change=lambda entry: RatingChange(
            entry=entry, race=race, user_id=entry.user_id, at=race.finished_at
        ),
        guarded=True,
    )
    playing = farming.counted(race, entries)
    _rate(period, playing, lambda players, counts: pairs.games(_results(players), counts))


def _results(entries):
    return {entry.pk: pair_result(entry) for entry in entries}


def settle_event(event):
    """Rate (or rate again) a rated event's final standings; nothing before they are."""
    if not event.rated:
        return
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)  # one rating of it at a time
        if event.entries.filter(rank__isnull=True).exists():
            return  # not over yet: the final ranks are stored first
        entries = list(event.entries.filter(user__isnull=False).order_by("rank", "pk"))
        period = Period(
            at=event.ends_at,
            players=entries,
            changes=RatingChange.objects.filter(event_entry__event=event),
            key="event_entry_id",
            owner={"event": event},
            new_change=lambda entry: RatingChange(
                event_entry=entry, user_id=entry.user_id, at=event.ends_at
            ),
        )
        counted = _event_players(event)
        playing = [entry for entry in entries if entry.pk in counted]
        _rate(period, playing, _neighbours)


def _neighbours(entries, counts):
    return pairs.neighbours([(entry.pk, entry.rank) for entry in entries], counts)


def _event_players(event):
    """The event's entries its rating counts: with a finished game (won, given up, or
    played until the time ran out), none flagged or disqualified."""
    games = Entry.objects.filter(race__event_game__entry__event=event)
    finished = Q(status__in=(Entry.WON, Entry.RESIGNED)) | Q(moves__gt=0)
    played = games.filter(finished).values("race__event_game__entry")
    held = games.filter(review__in=(Entry.FLAGGED, Entry.DISQUALIFIED))
    found = EventEntry.objects.filter(event=event, pk__in=played)
    found = found.exclude(pk__in=held.values("race__event_game__entry"))
    return set(found.values_list("pk", flat=True))


def decided(race):
    """Rate again what a staff decision on one of `race`'s results touches: the race,
    or the rated event it is a game of (once the event's standings are final)."""
    if race.mode != Race.EVENT:
        settle(race)
        return
    event = Event.objects.filter(entries__games__race=race).first()
    if event is not None:
        settle_event(event)


def _rate(period, playing, matches):
    """Rate `period` (again): each player from their rating before it, against the games
    `matches(playing, counts)` gives those `playing` (the day's cap applied by `counts`);
    a player not playing (any more) gets back whatever it had applied."""
    with transaction.atomic(), rank_counts.collected():
        accounts = {
            account.user_id: account
            for account in Account.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(user_id__in=[player.user_id for player in period.players])
            .order_by("pk")
        }
        rows = {getattr(row, period.key): row for row in period.changes}
        before = {player.pk: _before(period, player, rows, accounts) for player in period.players}
        played = _games(period, playing, matches)
        guard = farming.Guard(period, accounts, before) if period.guarded else None
        changed = []
        for player in period.players:
            opponents = played.get(player.pk, [])
            games = [(before[other], score) for other, score in opponents]
            row, account = rows.get(player.pk), accounts[player.user_id]
            if row is None and not games:
                continue  # never rated, nothing to rate
            after, capped = before[player.pk], 0.0
            if games:
                after = glicko2.rate(after, games)
            if games and guard:
                after, capped = guard.after(player, after, opponents)
            row = _apply(period, player, row, (before[player.pk], after), games, account)
            row.capped = capped
            changed.append((row, account))
        _save(changed)


def _save(changed):
    """The changed rows and accounts, [(RatingChange, Account)], in a few statements: an
    event changes thousands."""
    RatingChange.objects.bulk_create([row for row, _ in changed if row.pk is None])
    _update(RatingChange, CHANGE_FIELDS, [row for row, _ in changed if row.pk is not None])
    _update(Account, ACCOUNT_FIELDS, [account for _, account in changed])


def _update(model, names, objects):
    """UPDATE the fields `names` of each of `objects` by its primary key, one statement
    run for them all (Django's bulk_update builds a CASE per field and row: seconds of
    Python for an event's two thousand accounts)."""
    if not objects:
        return
    quote, meta = connection.ops.quote_name, model._meta
    fields = [meta.get_field(name) for name in names]
    sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    statement = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    values = [
        [field.get_db_prep_save(getattr(row, field.attname), connection) for field in fields]
        + [row.pk]
        for row in objects
    ]
    with connection.cursor() as cursor:
        cursor.executemany(statement, values)


def _before(period, player, rows, accounts):
    """The player's rating before this period: as stored once rated, else their current,
    the deviation grown by the days since their last rated game (and so applied)."""
    row = rows.get(player.pk)
    if row is not None:
        return glicko2.Rating(row.rating_before, row.deviation_before, row.volatility_before)
    account = accounts[player.user_id]
    now = player_ratings.current(account, period.at)
    account.deviation = now.deviation
    return now


def _games(period, playing, matches):
    """{player pk: [(opponent's pk, score)]}, each pair once, the day's cap applied;
    the pairs counted are stored (`RatedPair`) in place of any this period had."""
    day = period.at.date()
    users = {player.pk: player.user_id for player in playing}
    RatedPair.objects.filter(**period.owner).delete()
    earlier = _pairs_on(day, set(users.values()))
    counted = []

    def counts(a, b):
        low, high = sorted((users[a], users[b]))
        if low == high or earlier[low, high] >= settings.HALFMOON_RATED_PAIR_DAILY:
            return False
        earlier[low, high] += 1
        counted.append(RatedPair(day=day, low_id=low, high_id=high, **period.owner))
        return True

    played = matches(playing, counts)
    RatedPair.objects.bulk_create(counted)
    return played


def _pairs_on(day, users):
    """Counter {(low, high): rated games counted on `day`} among `users`: one query."""
    found = (
        RatedPair.objects.filter(day=day, low_id__in=users, high_id__in=users)
        .values_list("low_id", "high_id")
        .annotate(games=Count("id"))
    )
    return Counter({(low, high): games for low, high, games in found})


def pair_result(entry):
    """What the pairwise rule (game/ratings/pairs.py) reads of a finished entry."""
    return pairs.Result(
        won=entry.status == Entry.WON,
        abandoned=entry.status == Entry.ABANDONED,
        time_ms=entry.time_ms,
        score=entry.score,
        moves=entry.moves,
    )


def _apply(period, player, row, ratings, games, account):
    """The player's `row` (made if new) and `account` with the new rating (`ratings`:
    before, after) applied: the difference to what `row` applied before. Saved by `_save`."""
    before, after = ratings
    boards = account.counted_on()
    if row is None:
        row = period.new_change(player)
        row.rating_before, row.deviation_before, row.volatility_before = (
            before.rating,
            before.deviation,
            before.volatility,
        )
        applied, was_counted = before, False
        account.rated_at = max(account.rated_at or period.at, period.at)  # a later game's stays
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
        later = RatingChange.objects.filter(user_id=player.user_id, at__gt=row.at)
        later.update(
            rating_before=F("rating_before") + shift, rating_after=F("rating_after") + shift
        )
    rank_counts.moved(boards, account.counted_on())
    return row


def _within(deviation):
    return min(max(deviation, glicko2.MIN_DEVIATION), glicko2.START[1])


def lines(race):
    """{entry pk: what the end dialog shows of its rating}, for a rated race: the new
    rating and its change (and why it did not count, when the race was no game for it:
    game/results/farming.py), or `pending` while staff have a flagged result to decide."""
    if not race.rated or race.finished_at is None:
        return {}
    entries = list(race.entries.filter(user__isnull=False).select_related("user__account"))
    if any(entry.review == Entry.FLAGGED for entry in entries):
        return {entry.pk: {"pending": True} for entry in entries}
    rows = {row.entry_id: row for row in RatingChange.objects.filter(race=race)}
    found = {entry.pk: _line(rows.get(entry.pk), entry.user.account) for entry in entries}
    for entry in entries:
        reason = farming.unrated(race, entries, entry)
        if reason and not found[entry.pk]["counted"]:
            found[entry.pk]["unrated"] = reason  # said to the players: docs/protocol.md
    return found


def event_line(entry):
    """What an event's final standings show of the rating of one of its players (an
    `EventEntry`), as `lines` does; None for an unrated event, a guest, before the
    standings are final, or a player not rated (no finished game)."""
    if not entry.event.rated or entry.user_id is None or entry.rank is None:
        return None
    held = Entry.objects.filter(race__event_game__entry=entry, review=Entry.FLAGGED)
    if held.exists():
        return {"pending": True}
    row = RatingChange.objects.filter(event_entry=entry).first()
    return None if row is None else _line(row, Account.objects.get(user_id=entry.user_id))


def _line(row, account):
    """A rated result's line: the rating after it and its change (none when it did not
    count: the rating as it is now)."""
    if row is None or not row.counted:
        rating, deviation, change = account.rating, player_ratings.current(account).deviation, 0
    else:
        rating, deviation = row.rating_after, row.deviation_after
        change = round(row.rating_after) - round(row.rating_before)
    return {
        "rating": round(rating),
        "change": change,
        "provisional": ranks.provisional(deviation),
        "counted": row is not None and row.counted,
    }
