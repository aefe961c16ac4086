"""
The staff admin: deals, races and entries, the daily deal calendar and the
moderation pages; registered from game/admin.py.
"""
