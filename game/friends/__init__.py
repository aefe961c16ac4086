"""
Friends: follow any account, block one, challenge one you follow to a private race
(above the race core, below the daily boards' Friends views).
"""
