"""The daily habit as pure rules: a streak that forgives a missed day (a freeze) and a
month's calendar of days. No Django, no I/O: the profile and the archive read a
player's days from the database and hand them here, so the rule is one place, tested
alone (tests/server/test_streaks.py)."""
