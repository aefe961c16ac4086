"""
A race's rules and state, with no sockets: frames parsed and built, the actions, the
fast move path, the clock, attendance, refusals, standings, cached games and fair play.
"""
