"""
Reminders by web push, only to devices that asked: the daily deal, an event joined,
a challenge, a league's promotion line — each planned once, sealed and sent (docs/operations.md).
"""
