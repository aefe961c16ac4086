"""
Django's admin finds the staff's pages here: importing game/staff/ registers them
(deals, races, players' entries, the deal calendar, moderation, events).
"""

from game.staff import calendar, deals, events, moderation  # noqa: F401  (registers their ModelAdmins)
