"""
How a race's change reaches every socket in it, on any process: `publish_outcome`.

Every `actions` function (and every fast move of `moves`) returns an `Outcome`;
whoever called it hands it here and nowhere else, so no change is committed
without its broadcast. Every frame travels in the same envelope, encoded once,
to `RaceConsumer.race_frame`: to this process's sockets directly, to other
processes' through the race's channel-layer group (game/realtime/fanout.py).
Frames go out after the transaction that numbered them has committed, so a
client that reacts to one with `sync` reads a state at least as new as the
frame. If the layer is down the frames are logged and dropped: the next frame
that gets through shows clients a gap in `event`, and they sync.
"""

import logging

from asgiref.sync import async_to_sync
from django.db import transaction

from game.race import frames
from game.realtime import fanout

logger = logging.getLogger(__name__)
CLOCK_KINDS = {"countdown", "started", "finished"}
"""Broadcasts a consumer reads (to wake up for the race's deadlines); others it only sends."""


def envelope(frame):
    """A broadcast as it travels: encoded once, with what a consumer needs to route it."""
    return {
        "type": "race.frame",
        "kind": frame["type"],
        "event": frame.get("event"),
        "text": frames.encoded(frame),
        "frame": frame if frame["type"] in CLOCK_KINDS else None,
    }


async def publish_outcome_async(room, outcome):
    """From the event loop, once the action's transaction has committed."""
    try:
        for frame in outcome.broadcast:
            await fanout.publish(room, envelope(frame))
    except Exception:
        logger.exception("race %s: broadcast of %d frame(s) failed", room, len(outcome.broadcast))


def publish_outcome(room, outcome):
    """From synchronous code (views, the queue): sent when the current transaction
    commits, at once outside one."""
    if outcome.broadcast:
        transaction.on_commit(lambda: async_to_sync(publish_outcome_async)(room, outcome))
