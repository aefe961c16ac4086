"""
The rush at the daily deal's reset, small: a hundred newcomers arriving over ten
seconds at a Poisson rate through nginx (deploy/nginx.conf) in front of two daphne
processes, each as a browser does: the day's page, its Play, the race's socket and
its `state`, the deal's first move (game/testing/arrivals.py). Nobody meets an HTTP
error, a closed socket or a refusal; every newcomer gets its state and its move
acknowledged, and every acknowledged move is in the database. How fast is the
bench's business (bench/rush.py, docs/performance.md "The rush").
"""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from game.testing.arrivals import acknowledged, rush, tally, todays_first_move
from game.testing.entrance import entrance
from game.testing.live import database_url
from tests.support.server import entrance_env, forget_counts

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.nginx,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
NEWCOMERS = 100
SECONDS = 10
ONE_ADDRESS = {
    "HALFMOON_CREATE_ADDRESS_LIMIT": "100000/60",
    "HALFMOON_ADDRESS_FRAME_RATE": "100000",
    "HALFMOON_ADDRESS_FRAME_BURST": "100000",
}
"""Every newcomer here comes from 127.0.0.1, where a rush's come each from its own
address: the limits per address are lifted, those per player are not."""


@pytest.fixture
def front(nginx_path, redis_url, tmp_path):
    forget_counts(redis_url)
    with entrance(nginx_path, entrance_env(redis_url, **ONE_ADDRESS), tmp_path) as front:
        yield front


def stored_first_moves(entries):
    from game.models import Move

    return set(Move.objects.filter(entry_id__in=entries, seq=1).values_list("entry_id", "seq"))


async def test_a_hundred_newcomers_in_ten_seconds_all_play_without_an_error(front):
    database = database_url(settings.DATABASES["default"])
    first_move = await asyncio.to_thread(todays_first_move, front, database)
    over = asyncio.Event()
    newcomers, stays = await rush(front, NEWCOMERS, SECONDS, first_move, over)
    over.set()
    await asyncio.gather(*stays)
    met = tally(newcomers)
    assert (met["http_errors"], met["closes"], met["refused"]) == ({}, {}, {})
    assert (met["no_state"], met["no_ack"]) == (0, 0)
    acked = acknowledged(newcomers)
    assert len(acked) == NEWCOMERS
    entries = [entry for entry, _ in acked]
    assert await database_sync_to_async(stored_first_moves)(entries) == acked
