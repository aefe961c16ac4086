"""
Who plays: a session's player key, accounts and their names, staff's moderation of
names and results, and each player's stats (profiles).
"""
