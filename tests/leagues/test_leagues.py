"""
Weekly leagues (game/leagues/): a week of scripted play by 60 accounts groups them by
30, scores them and moves them up and down exactly as the pure rule says, the same on
a second run and once only however often the week is settled; a real rated race
scores its players; the page shows one's group, and refuses a bad or future week.
"""

import datetime
import itertools

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from game.base import days
from game.leagues import members, rules, weeks
from game.models import Entry, LeagueMember, LeagueWeek
from tests.race.test_fair_play import daily_result
from tests.ratings.test_ratings import ada_beats_bob

pytestmark = pytest.mark.django_db

WEEK_1 = datetime.date(2025, 3, 3)  # a Monday
WEEK_2 = WEEK_1 + datetime.timedelta(days=7)
WEEK_3 = WEEK_2 + datetime.timedelta(days=7)


def script(week, n):
    """Account n's ranked dailies of `week`: (day, won, moves), different for each."""
    played = [week + datetime.timedelta(days=d) for d in range(7) if (n * 7 + d * 3) % 5 < 3]
    return [(day, (n + day.day) % 3 == 0, 5 if (n + day.day) % 11 == 0 else 40) for day in played]


def finished_at(day, n):
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(12, n)))


def play_week(week, accounts=60):
    """Every scripted result stored as a finished ranked daily, noted as a game's end does."""
    for n in range(accounts):
        for day, won, moves in script(week, n):
            daily_result(day, f"p{n:02}", status=Entry.WON if won else Entry.RESIGNED)
            at = finished_at(day, n)
            Entry.objects.filter(user__username=f"p{n:02}", daily_date=day).update(
                finished_at=at, moves=moves
            )
            members.note([User.objects.get(username=f"p{n:02}").pk], at)


def note_week(week, accounts=60):
    """The week's results, stored already, noted again in the order they were played."""
    users = dict(User.objects.values_list("username", "pk"))
    for n in range(accounts):
        for day, _, _ in script(week, n):
            members.note([users[f"p{n:02}"]], finished_at(day, n))


def expected_points(week, n):
    results = [
        rules.Result(
            rules.DAILY,
            finished_at(day, n),
            moves,
            won=won,
        )
        for day, won, moves in script(week, n)
    ]
    return rules.week_points(results)[0]


def snapshot():
    return sorted(
        LeagueMember.objects.values_list(
            "user__username", "week", "tier", "group", "points", "rank", "outcome"
        )
    )


def assert_settled_by_the_rule(week):
    found = LeagueMember.objects.filter(week=week).order_by("tier", "group")
    for (tier, _), group in itertools.groupby(found, key=lambda m: (m.tier, m.group)):
        order = weeks.ranked(list(group))
        moves = rules.outcomes([(m, m.points) for m in order], tier)
        assert [m.rank for m in order] == list(range(1, len(order) + 1))
        assert all(m.outcome == moves[m] for m in order)


def test_a_scripted_week_of_60_accounts_moves_them_exactly_as_the_rule_says(monkeypatch):
    monkeypatch.setattr(days, "today", lambda: WEEK_3)
    play_week(WEEK_1)
    first = LeagueMember.objects.filter(week=WEEK_1)
    assert sorted(first.values_list("group", flat=True).distinct()) == [1, 2]
    assert {m.tier for m in first} == {0}
    for member in first.select_related("user"):
        n = int(member.user.username[1:])
        assert member.points == expected_points(WEEK_1, n)
    play_week(WEEK_2)  # the first join of week 2 settles week 1
    assert LeagueWeek.objects.filter(week=WEEK_1).exists()
    assert_settled_by_the_rule(WEEK_1)
    up = set(first.filter(outcome=rules.UP).values_list("user_id", flat=True))
    assert len(up) == 2 * rules.movers(30)
    assert not first.filter(outcome=rules.DOWN).exists()  # the lowest tier moves nobody down
    second = LeagueMember.objects.filter(week=WEEK_2)
    assert set(second.filter(tier=1).values_list("user_id", flat=True)) == up
    assert weeks.settle_due() == [WEEK_2]
    assert_settled_by_the_rule(WEEK_2)
    top = second.filter(tier=1)
    assert top.filter(outcome=rules.UP).count() == 1 and top.filter(outcome=rules.DOWN).count() == 1
    settled = snapshot()
    assert weeks.settle_due() == [] and not weeks.settle(WEEK_2)  # once only
    assert snapshot() == settled
    LeagueMember.objects.all().delete()
    LeagueWeek.objects.all().delete()
    note_week(WEEK_1)
    note_week(WEEK_2)
    weeks.settle_due()
    assert snapshot() == settled  # the same weeks noted again: the same leagues


def test_a_rated_race_scores_its_players_and_the_page_shows_the_group(client):
    race, _ = ada_beats_bob()
    week = rules.week_start(race.finished_at.date())
    ada = LeagueMember.objects.get(user__username="ada", week=week)
    bob = LeagueMember.objects.get(user__username="bob", week=week)
    assert ada.points == rules.RACE_FINISHED + rules.RACE_OPPONENT_BEATEN
    assert bob.points == rules.RACE_FINISHED
    assert (ada.tier, ada.group) == (bob.tier, bob.group) == (0, 1)
    client.force_login(User.objects.get(username="ada"))
    page = client.get("/leagues/").content.decode()
    assert "New Moon league" in page
    assert page.index(">ada<") < page.index(">bob<")
    assert "would move up" in page


def test_a_guest_is_told_how_to_join_and_bad_weeks_are_a_clear_404():
    guest = Client()
    page = guest.get("/leagues/").content.decode()
    assert "Leagues are for accounts" in page
    for bad in ("2026-W99", "last-week", "9999-W01"):
        answer = guest.get(f"/leagues/{bad}/")
        assert answer.status_code == 404, bad
    assert "2026-W48" in guest.get("/leagues/x/").content.decode()  # how a week looks


def test_the_profile_and_the_api_tell_the_week_and_the_last_week(client, monkeypatch):
    monkeypatch.setattr(days, "today", lambda: WEEK_2)
    play_week(WEEK_1, accounts=6)
    weeks.settle_due()
    best = LeagueMember.objects.get(week=WEEK_1, rank=1)
    name = best.user.get_username()
    found = client.get(f"/api/players/{name}/").json()["league"]
    assert found["tier"] is None and found["week"] == "2025-W11"
    assert found["last_week"] == {
        "week": "2025-W10",
        "tier": "new_moon",
        "tier_name": "New Moon",
        "place": 1,
        "points": best.points,
        "outcome": rules.UP,
    }
    page = client.get(f"/players/{name}/").content.decode()
    assert "New Moon: #1" in page and "moved up" in page


NOON = timezone.make_aware(datetime.datetime(2025, 3, 4, 12))


def race(minute, opponents, beaten=1, moves=30):
    at = NOON + datetime.timedelta(minutes=minute)
    return rules.Result(rules.RACE, at, moves, beaten=beaten, opponents=frozenset(opponents))


def test_the_rule_caps_races_against_one_opponent_and_ignores_short_games():
    against_bob = [race(minute, {"bob"}) for minute in range(5)]
    capped = rules.PAIR_CAP * (rules.RACE_FINISHED + rules.RACE_OPPONENT_BEATEN)
    assert rules.week_points(against_bob)[0] == capped
    with_cara = [*against_bob, race(9, {"bob", "cara"}, beaten=2)]
    assert rules.week_points(with_cara)[0] == capped + 1 + 2 * 2  # cara is still new
    assert rules.week_points([race(1, {"bob"}, moves=rules.MIN_MOVES - 1)]) == (0, None)
    event = rules.Result(rules.EVENT, NOON, rules.MIN_MOVES, rank=7)
    assert rules.week_points([event]) == (rules.EVENT_PLAYED, NOON)


def test_outcomes_move_one_in_six_and_only_with_points():
    ranked = [(f"m{n}", points) for n, points in enumerate([9, 8, 0, 0, 0, 0, 0])]
    assert rules.outcomes(ranked, tier=2) == {
        "m0": rules.UP,
        "m1": rules.STAY,
        "m2": rules.STAY,
        "m3": rules.STAY,
        "m4": rules.STAY,
        "m5": rules.STAY,
        "m6": rules.DOWN,
    }
    nobody = [(f"m{n}", 0) for n in range(12)]
    moved = rules.outcomes(nobody, tier=len(rules.TIERS) - 1)
    assert [m for m, o in moved.items() if o == rules.UP] == []
    assert [m for m, o in moved.items() if o == rules.DOWN] == ["m10", "m11"]
