"""
The live race, with no sockets: frames parsed and built, the actions, the fast move
path, the clock, attendance, refusals; what follows a finished game is game/results/.
"""
