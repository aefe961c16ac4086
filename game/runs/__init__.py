"""
Any finished run, beyond its own race: shared under a token (its result as a line of
text and an image card), raced as a ghost by whoever may, and played on from any
position the viewer may see, as an unranked sandbox game.
"""
