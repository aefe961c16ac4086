"""
daphne on uvloop: `python -m halfmoon_site.daphne_uvloop` takes daphne's own arguments.

Every frame in and out of a race socket turns the event loop a few times (Twisted's
reactor runs on asyncio's); uvloop's loop does that in C, about 5 % of a process's
CPU per move at 300 players (bench/openloop.py, alternating rounds). daphne makes
its loop when its server module is imported, so the loop's kind is chosen here,
before that import.
"""

import asyncio

import uvloop

asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

from daphne.cli import CommandLineInterface  # noqa: E402 - after the policy, on purpose

if __name__ == "__main__":
    CommandLineInterface.entrypoint()
