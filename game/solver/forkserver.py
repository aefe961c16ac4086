"""
Imported by the solver pool's forkserver, and only there (the pool names it in
`set_forkserver_preload`): the forkserver ends when its server does
(game/solver/tether.py explains why it would not by itself).
"""

from game.solver import tether

tether.watch_parent()
