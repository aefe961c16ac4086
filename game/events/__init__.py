"""
Events: many players at a fixed hour through the same deals, each game a race of one,
with live standings computed once a second per event and pushed to every socket.
"""
