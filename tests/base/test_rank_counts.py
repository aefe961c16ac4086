"""
Ranks deep in a board from its counts (game/models/rank_counts.py): on boards built by
judging real results, with ties on every part of each board's order, one's rank read
from the counts is the rank a full sort gives, for every account, after a
disqualification and a deletion too; and the counts the writers keep are the counts
rebuilt from the rows.
"""

import datetime
import random

import pytest
from django.contrib.auth.models import User

from game.daily import record_boards
from game.models import ALL_TIME_START, Account, Entry, RankCount, Record, rank_counts
from game.players import player_ratings
from game.results import fairplay
from tests.race.test_fair_play import daily_result
from tests.ratings.test_ratings import ada_beats_bob

pytestmark = pytest.mark.django_db

MARCH = [datetime.date(2025, 3, day) for day in range(1, 11)]


def counts():
    return {(c.board, c.key): c.size for c in RankCount.objects.all() if c.size}


def sorted_rank(records, board, user_id):
    """The rank of `user_id` when every record of the board is sorted by its order."""
    _, value, reached, higher = record_boards.BOARDS[board]

    def order(record):
        figure = getattr(record, value)
        return (-figure if higher else figure, getattr(record, reached), record.user_id)

    shown = sorted((r for r in records if getattr(r, value) is not None), key=order)
    return [r.user_id for r in shown].index(user_id) + 1


def assert_every_rank(period, start):
    records = list(Record.objects.filter(period=period, start=start))
    for board in record_boards.BOARDS if period == Record.ALL else record_boards.PERIOD_BOARDS:
        for record in records:
            if board == "times" and record.best_ms is None:
                continue
            found = record_boards.records_page(period, start, board, 1, viewer_id=record.user_id)
            assert found["you"]["rank"] == sorted_rank(records, board, record.user_id), (
                board,
                record.user.username,
            )


@pytest.fixture
def crowded(monkeypatch):
    """24 accounts' ranked wins over ten days of March 2025, times that share their
    second (60.1 s and 60.9 s) and days that share their wins, judged as results are;
    one page of one row, so nearly every rank comes from the counts."""
    monkeypatch.setattr(record_boards, "PAGE", 1)
    rng = random.Random(11)
    for n in range(24):
        for day in rng.sample(MARCH, rng.randint(1, 4)):
            daily_result(day, f"p{n:02}", ms=rng.choice([60_100, 60_900, 61_000, 75_500]))
    return rng


def test_a_rank_from_the_counts_is_the_rank_of_the_full_order(crowded):
    assert RankCount.objects.filter(board="all/2000-01-01/wins").count() > 1
    assert_every_rank(Record.ALL, ALL_TIME_START)
    assert_every_rank(Record.WEEK, datetime.date(2025, 3, 3))
    assert_every_rank(Record.MONTH, datetime.date(2025, 3, 1))
    kept = counts()
    rank_counts.rebuild()
    assert counts() == kept


def test_counts_follow_a_disqualification_and_a_deleted_account(crowded, admin_user):
    for entry in Entry.objects.filter(name__in=["p03", "p07"]):
        fairplay.decide(entry, admin_user, Entry.DISQUALIFIED, "shared account")
    assert not Record.objects.filter(user__username="p03").exists()
    User.objects.filter(username__in=["p05", "p11"]).delete()
    assert_every_rank(Record.ALL, ALL_TIME_START)
    assert_every_rank(Record.MONTH, datetime.date(2025, 3, 1))
    kept = counts()
    rank_counts.rebuild()
    assert counts() == kept


def test_the_rating_board_ranks_from_the_counts_the_writers_keep(monkeypatch):
    ada_beats_bob()
    ada_beats_bob()
    assert counts() == {
        ("rating", int(Account.objects.get(user__username=name).rating // 1)): 1
        for name in ("ada", "bob")
    }
    # Rivals on the points around bob's, one on bob's own point just above him.
    bob = Account.objects.get(user__username="bob")
    for n, rating in enumerate([bob.rating + 0.3, bob.rating + 5, bob.rating - 2]):
        user = User.objects.create(username=f"rival{n}")
        Account.objects.create(user=user, player_key=f"rival{n}".ljust(32, "k"))
        rival = Account.objects.get(user=user)
        before = rival.counted_on()
        rival.rating, rival.rated_games = rating, 1
        rival.save()
        rank_counts.moved(before, rival.counted_on())
    monkeypatch.setattr(player_ratings, "BOARD", 1)
    everyone = sorted(Account.objects.filter(rated_games__gt=0), key=lambda a: (-a.rating, a.id))
    for account in everyone:
        _, you = player_ratings.board(account.user)
        assert you["rank"] == everyone.index(account) + 1, account.user.username
    kept = counts()
    rank_counts.rebuild()
    assert counts() == kept
