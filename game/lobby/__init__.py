"""
Games started from the lobby: games played alone (solo, the daily attempt, a ghost
race) and the quick-race queue.
"""
