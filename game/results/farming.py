"""
The rules against farming a rating (game/ratings/farming.py) applied to a rating
period's players as stored (game/results/rated.py calls these).

A rated race that lasted seconds is not rated, and a player who gave up or left
before ten moves is left out of it (`counted`, `unrated`); a gain against a
provisional or young account is damped, and gains against new or same-address
accounts stop at the day's cap (`Guard`). The farm these answer: a farmer and two
feeder accounts of one address, the feeders resigning at once, 1500 → 1857 in six
races.
"""

from django.conf import settings
from django.db.models import Sum

from game.models import Entry, RatingChange
from game.players import accounts, trust
from game.ratings import farming, glicko2


def _too_short(race):
    started = race.started_at or race.finished_at
    seconds = (race.finished_at - started).total_seconds()
    return farming.too_short(seconds, settings.HALFMOON_RATED_MIN_S)


def _left_early(entry):
    gave_up = entry.status in (Entry.RESIGNED, Entry.ABANDONED)
    return farming.left_early(gave_up, entry.moves, settings.HALFMOON_RATED_MIN_MOVES)


def counted(race, entries):
    """The entries of a finished rated race its rating counts: none when it lasted
    seconds; otherwise all but a disqualified result and a player who left early."""
    if _too_short(race):
        return []
    return [e for e in entries if e.review != Entry.DISQUALIFIED and not _left_early(e)]


def unrated(race, entries, entry):
    """Why `entry`'s result in a rated race moved no rating by these rules: "too_short",
    "left_early" (it left early, or every opponent did), or None."""
    if _too_short(race):
        return farming.TOO_SHORT
    others = [e for e in entries if e.pk != entry.pk]
    if _left_early(entry) or (others and all(_left_early(e) for e in others)):
        return farming.LEFT_EARLY
    return None


class Guard:
    """A rating period's damping and day's cap: what each player's new rating may gain
    against the opponents it was rated against."""

    def __init__(self, period, found, before):
        """`period`: game/results/rated.py's `Period`; `found`: its accounts by user id (their
        users loaded); `before`: their ratings before it, by result pk."""
        self.at, self.accounts, self.before = period.at, found, before
        self.users = {player.pk: player.user_id for player in period.players}
        self.gained = _gained_on(period, set(found))

    def after(self, player, after, opponents):
        """(the new rating, its gain counted against the day's cap) of `player`, rated
        `after` against `opponents` ([(result pk, score)])."""
        before = self.before[player.pk]
        scored = [other for other, score in opponents if score > 0]
        change = farming.damped(after.rating - before.rating, [self._weight(o) for o in scored])
        mine = self.accounts[player.user_id]
        if any(trust.suspect(mine, self.accounts[self.users[o]], self.at) for o in scored):
            cap = settings.HALFMOON_RATED_NEW_DAILY
            change = farming.within_cap(change, self.gained[player.user_id], cap)
            capped = max(change, 0.0)
        else:
            capped = 0.0
        self.gained[player.user_id] += capped
        return glicko2.Rating(before.rating + change, after.deviation, after.volatility), capped

    def _weight(self, other):
        account = self.accounts[self.users[other]]
        young = self.at - account.user.date_joined < accounts.min_age()
        return farming.weight(self.before[other].deviation, account.rated_games, young)


def _gained_on(period, users):
    """{user id: rating gained against new or same-address accounts} on the UTC day
    `period` ended, by other periods (its own rows are being rated again)."""
    rows = RatingChange.objects.filter(user_id__in=users, at__date=period.at.date())
    rows = rows.exclude(**{f"{period.key}__in": [player.pk for player in period.players]})
    found = dict(rows.values_list("user_id").annotate(Sum("capped")))
    return {user: found.get(user) or 0.0 for user in users}
