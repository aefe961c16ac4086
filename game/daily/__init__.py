"""
The daily deal's boards and plans: finishing a day's timed-out attempts, the day's
leaderboard, the month, all-time records, ghost races and the staff's calendar.
"""
