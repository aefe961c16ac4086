"""The daily habit as pure rules: the streak and its freezes, a month's calendar of days.
No Django, no I/O (game/players/profiles.py and game/daily/archive.py read the days)."""
