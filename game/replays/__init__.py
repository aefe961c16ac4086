"""
Finished games watched again: who may watch, the replay's steps, and the after-game
analysis (a verdict, where the game was lost, a winning line).
"""
