"""
/healthz: whether this process can serve players, for the load balancer.

200 only when the process can run a query and pass a message through the
channel layer, so a replica that lost its database or Redis leaves rotation;
503 names what failed. A check that meets a Redis connection closed under it (a
restart, an idle link dropped) tries once more on a fresh one before saying so.
"""

import asyncio
import logging
import weakref

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from redis.exceptions import ConnectionError as RedisConnectionError

logger = logging.getLogger(__name__)

LAYER_TIMEOUT_S = 2.0


@never_cache
@require_safe
async def healthz(request):
    checks = {
        "database": await sync_to_async(_database_ok)(),
        "channel_layer": await _layer_ok(),
    }
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )


def _database_ok():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: database check failed")
        return "unavailable"
    return "ok"


_probe_channels = weakref.WeakKeyDictionary()
"""One probe channel per layer and event loop (daphne runs one loop): a pub/sub
layer keeps every channel it has received on subscribed, so a new channel per
check would leak, and its subscriptions belong to the loop that made them."""


async def _layer_ok():
    """ "ok" when a message goes through the layer and back. A connection error on the
    first try is tried once more: the layer's pooled connection that a Redis restart
    (or a dropped link) closed fails only the first command sent on it, which made the
    first check on an idle replica a false 503; the retry takes a fresh connection."""
    layer = get_channel_layer()
    probes = _probe_channels.setdefault(asyncio.get_running_loop(), {})
    for retry in (True, False):
        try:
            await _probe(layer, probes)
        except Exception as exc:
            # The pub/sub layer drops a channel whose receive was cancelled, and one whose
            # unsubscribe failed (Redis down) is never subscribed again: start afresh.
            probes.pop(id(layer), None)
            if retry and isinstance(exc, RedisConnectionError | ConnectionError):
                continue
            logger.exception("healthz: channel layer check failed")
            return "unavailable"
        return "ok"


async def _probe(layer, probes):
    channel = probes.get(id(layer)) or await layer.new_channel("healthz.")
    probes[id(layer)] = channel
    await layer.send(channel, {"type": "healthz"})
    async with asyncio.timeout(LAYER_TIMEOUT_S):
        await layer.receive(channel)
