"""
Any finished game beyond its race: shared under a token, raced as a ghost by whoever may
see it, and played on from a position as an unranked sandbox.
"""
