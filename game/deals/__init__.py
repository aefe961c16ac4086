"""
Which deal a game is played on and who may see its code: the day's deal (picked from
the date), the secrecy rules, and deals typed as codes.
"""
