"""/healthz: 200 only when the database and the channel layer both work."""

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]


def test_healthz_is_503_and_says_so_when_the_channel_layer_fails(client, monkeypatch):
    class Broken:
        async def new_channel(self, prefix):
            raise ConnectionError("redis down")

    monkeypatch.setattr("game.web.health.get_channel_layer", lambda: Broken())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "ok", "channel_layer": "unavailable"}


@pytest.mark.redis
@pytest.mark.parametrize("backend", ["core.RedisChannelLayer", "pubsub.RedisPubSubChannelLayer"])
def test_healthz_passes_a_message_through_either_redis_layer(client, settings, redis_url, backend):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": f"channels_redis.{backend}", "CONFIG": {"hosts": [redis_url]}}
    }
    for _ in range(2):
        response = client.get("/healthz")
        assert response.status_code == 200, response.content
        assert response.json()["channel_layer"] == "ok"
