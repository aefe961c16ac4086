"""
Sending a race's broadcast frames to everyone connected to it, on any process.

One channel-layer group per race; every frame travels in the same envelope
and reaches `RaceConsumer.race_frame`. Frames are sent after the transaction
that numbered them has committed, so a client that reacts to one with `sync`
reads a state at least as new as the frame.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(room):
    return f"race-{room}"


async def publish_async(room, frames):
    layer = get_channel_layer()
    for frame in frames:
        await layer.group_send(group_name(room), {"type": "race.frame", "frame": frame})


def publish(room, frames):
    """From synchronous code (HTTP views); a no-op when there is nothing to say."""
    if frames:
        async_to_sync(publish_async)(room, frames)
