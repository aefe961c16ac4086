"""
Friends: accounts follow any account (no consent asked), block one, and challenge an
account they follow to a private race. Above the race core (an accepted challenge
creates a race through game/race/actions.py), below the daily boards, whose Friends
views read `follows.circle`.
"""
