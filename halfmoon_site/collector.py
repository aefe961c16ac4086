"""
Python's garbage collector, set for a server holding many sockets.

A full collection walks every object a process holds: with a few hundred sockets,
110-170 ms in which no frame is answered (measured, bench/openloop.py). What the
process loaded to start is never garbage: frozen, it is walked no more; and
collections run less often (a young one 7x, a full one about 30x), so a full one
comes every few minutes instead of every few seconds. The project's servers
(halfmoon_site/asgi.py) and the bench's ceiling (bench/ceiling.py) both call `settle`.
"""

import gc


def settle():
    """Freeze what is loaded so far, and collect less often; call once started up."""
    gc.freeze()
    gc.set_threshold(5_000, 20, 20)
