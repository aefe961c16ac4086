"""
/metrics against a real daphne process: the figures an operator graphs move when a
race is played (moves acknowledged, the ack latency, refused frames, sockets and races
open, group-commit batches and their commit times, pool waits, the presence
heartbeat), and a client outside HALFMOON_METRICS_ALLOW is refused with a clear 403.
"""

import asyncio
import urllib.request

import pytest
from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families

from game.testing.live import database_url, environment, running
from tests.support.faults import moving
from tests.support.server import polled, racers_on

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]
MOVES = 12
"""Acknowledged moves, at least, each player makes before the figures are read."""


@pytest.fixture
def server(redis_url, tmp_path):
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        HALFMOON_COUNTDOWN_S="0.3",
        HALFMOON_HEARTBEAT_S="0.5",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(1, env, tmp_path) as (server,):
        yield server


def scrape(server):
    """{(sample name, frozenset of labels): value} of the process's /metrics."""
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = response.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scraped(server):
    return await asyncio.to_thread(scrape, server)


def value(figures, name, **labels):
    return figures.get((name, frozenset(labels.items())), 0.0)


async def test_the_figures_move_when_a_race_is_played(server):
    before = await scraped(server)
    racers = await racers_on([server], ["Ada", "Bob", "Cleo"])
    async with moving(racers) as wait:
        await wait(
            lambda: all(len(racer.acked) >= MOVES for racer in racers),
            30,
            lambda: f"fewer than {MOVES} moves each acknowledged",
        )
        during = await scraped(server)
    acked = sum(len(racer.acked) for racer in racers)
    await racers[0].player.ws.send("not json")
    assert (await racers[0].player.expect("error"))["code"] == "bad_json"
    slots = next(moved["slots"] for moved in racers[0].acked if moved["kind"] == "move")
    await racers[0].player.send("move", seq=racers[0].seq + 100, slots=slots)  # not the next
    assert (await racers[0].player.expect("rejected"))["code"] == "bad_seq"
    after = await polled(
        lambda: scraped(server),
        lambda figures: value(figures, "halfmoon_heartbeat_seconds_count") >= 1,
        within_s=20,
    )

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert value(during, "halfmoon_sockets_open") == 3
    assert value(during, "halfmoon_races_open") == 1
    assert grew("halfmoon_moves_acknowledged_total") == acked
    assert grew("halfmoon_move_ack_seconds_count") == acked
    assert 0 < grew("halfmoon_move_ack_seconds_sum") < acked * 10
    assert grew("halfmoon_refused_frames_total", frame="error", code="bad_json") == 1
    assert grew("halfmoon_refused_frames_total", frame="rejected", code="bad_seq") == 1
    batches = grew("halfmoon_commit_batch_moves_count")
    assert 1 <= batches <= grew("halfmoon_commit_batch_moves_sum") <= acked
    assert grew("halfmoon_commit_seconds_count") == batches
    assert grew("halfmoon_db_pool_wait_seconds_count") >= batches
    assert grew("halfmoon_heartbeat_seconds_count") >= 1
    assert grew("process_cpu_seconds_total") > 0
    for racer in racers:
        await racer.player.close()

    def emptied(figures):
        return value(figures, "halfmoon_sockets_open") + value(figures, "halfmoon_races_open") == 0

    closed = await polled(lambda: scraped(server), emptied, within_s=10)
    assert value(closed, "halfmoon_sockets_open") == 0
    assert value(closed, "halfmoon_races_open") == 0


def test_a_client_outside_the_allowed_networks_is_refused(client, settings):
    settings.HALFMOON_METRICS_ALLOW = ["127.0.0.1/32", "10.20.0.0/16"]
    refused = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == 403
    assert refused.content.decode() == (
        "/metrics is served only to HALFMOON_METRICS_ALLOW; not to 203.0.113.9\n"
    )
    inside = client.get("/metrics", REMOTE_ADDR="10.20.3.4")
    assert inside.status_code == 200
    assert b"# TYPE halfmoon_moves_acknowledged_total counter" in inside.content
    assert client.post("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 405
