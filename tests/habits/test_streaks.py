"""
The streak rule (game/habits/streaks.py) by dates alone: a freeze earned every seven
days of streak, two held at most, spent on a missed day and never counted as one
played; a day played and lost ends the streak; today is never missed before it ends.
"""

import datetime

from game.habits import calendar, streaks

MONDAY = datetime.date(2026, 11, 2)


def day(n):
    return MONDAY + datetime.timedelta(days=n)


def run(*numbers):
    return {day(n) for n in numbers}


def test_no_win_no_streak():
    found = streaks.streak(run(0, 1), set(), day(3))
    assert (found.current, found.best, found.held, found.used) == (0, 0, 0, 0)


def test_wins_in_a_row_count_and_today_unplayed_is_not_missed():
    wins = run(0, 1, 2)
    assert streaks.streak(wins, wins, day(3)).current == 3
    assert streaks.streak(wins, wins, day(4)).current == 0  # day 3 missed, no freeze held


def test_seven_days_earn_a_freeze_spent_on_a_missed_day():
    wins = run(*range(7), 8, 9)  # day 7 missed
    found = streaks.streak(wins, wins, day(10))
    assert (found.current, found.held, found.used, found.frozen) == (9, 0, 1, [day(7)])


def test_a_freeze_is_never_a_day_played():
    wins = run(*range(7), 8)
    assert streaks.streak(wins, wins, day(9)).current == 8  # 7 won + 1 won, the freeze adds none


def test_at_most_two_freezes_are_held():
    wins = run(*range(28))
    found = streaks.streak(wins, wins, day(28))
    assert (found.current, found.held) == (28, 2)
    later = streaks.streak(wins, wins, day(31))  # days 28, 29 frozen, day 30 missed
    assert (later.current, later.held, later.frozen) == (0, 0, [day(28), day(29)])
    assert later.best == 28


def test_a_day_played_and_not_won_ends_the_streak_and_freezes_are_kept():
    wins = run(*range(7))
    played = wins | run(7)
    found = streaks.streak(played, wins, day(9))
    assert (found.current, found.held, found.used) == (0, 1, 0)
    again = streaks.streak(played | run(9), wins | run(9), day(10))
    assert (again.current, again.held) == (1, 1)


def test_a_lost_day_today_ends_the_streak_at_once():
    wins = run(0, 1)
    assert streaks.streak(wins | run(2), wins, day(2)).current == 0


def test_the_same_days_give_the_same_streak_however_often_read():
    wins = run(*range(7), 9, 10)
    first = streaks.streak(wins, wins, day(11))
    assert first == streaks.streak(wins, wins, day(11))
    assert (first.current, first.best, first.frozen) == (2, 7, [day(7)])  # day 8 ended it


def test_a_month_is_weeks_of_seven_from_monday():
    weeks = calendar.month_weeks(datetime.date(2026, 11, 1), {day(0): "won"}, day(1))
    assert all(len(week) == 7 for week in weeks)
    assert weeks[0][:6] == [None] * 6 and weeks[0][6]["date"] == datetime.date(2026, 11, 1)
    cells = {cell["date"]: cell for week in weeks for cell in week if cell}
    assert cells[day(0)]["mark"] == "won" and cells[day(1)]["today"]
    assert cells[day(2)]["mark"] == "future" and len(cells) == 30
