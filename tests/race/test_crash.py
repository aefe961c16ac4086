"""
A server process killed mid-race loses no acknowledged move: every `moved` a
player received is a stored Move, none twice, and the player carries on from the
exact board on the other process within seconds.
"""

import asyncio
import signal

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from game.models import Entry
from game.results import move_log
from game.testing.live import Player, database_url, environment, running
from tests.support.server import WIN, lobby_on_two_servers

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]


def stored(room):
    bob = Entry.objects.get(race__room=room, name="Bob")
    return bob, [(row.seq, row.slots) for row in move_log.rows(bob)]


async def test_a_process_killed_mid_race_loses_no_acknowledged_move(redis_url, tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_COUNTDOWN_S="0.3",
        HALFMOON_FRAME_BURST="200",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as (one, two):
        room, _, ada, bob = await lobby_on_two_servers(one, two)
        await ada.send("start")
        await bob.expect("started")
        await bob.expect("state")
        acked = []
        for seq, move in enumerate(WIN[:10], start=1):
            await bob.send("move", seq=seq, slots=move)
            acked.append((seq, (await bob.expect("moved"))["slots"]))
        for seq, move in enumerate(WIN[10:14], start=11):  # in flight when the process dies
            await bob.send("move", seq=seq, slots=move)
        two.kill(signal.SIGKILL)
        with pytest.raises((ConnectionClosed, TimeoutError)):
            while True:
                frame = await bob.expect("moved", timeout=5)
                acked.append((frame["seq"], frame["slots"]))

        again = Player(bob.browser, one, room)  # the client reconnects to the other process
        state = await asyncio.wait_for(again.open(), timeout=10)
        assert state["board"]["seq"] >= acked[-1][0]
        for seq in range(state["board"]["seq"] + 1, 15):
            await again.send("move", seq=seq, slots=WIN[seq - 1])
            assert (await again.expect("moved"))["seq"] == seq
        entry, moves = await database_sync_to_async(stored)(room)
        assert [seq for seq, _ in moves] == list(range(1, 15))  # none lost, none twice
        assert [slots for seq, slots in moves if (seq, slots) in acked] == [s for _, s in acked]
        assert (entry.seq, entry.moves) == (14, 14)
        await again.close()
        await ada.close()
