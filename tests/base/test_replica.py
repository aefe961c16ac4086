"""
The read-only pages on a streaming replica (game/base/replica.py): a real second
PostgreSQL, started by the test as a hot standby of the test database's server, behind
a real daphne process given DATABASE_REPLICA_URL. With the replica's replay paused, a
write through the site lands on the primary and the pages about other people (a board,
a profile) do not show it yet, while the writer's own pages (read on the primary) do;
once the replica catches up, the boards show it too.
"""

import urllib.error

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from game.models import Account
from game.testing.live import Browser, database_url, environment, running
from tests.support.replica import StreamingReplica, Unavailable

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "replica-tests-password-9"


@pytest.fixture
def replica():
    from conftest import in_ci  # the suite's root conftest (not importable from a shell)

    try:
        standby = StreamingReplica(settings.DATABASES["default"])
        standby.start()
    except Unavailable as why:
        if in_ci():
            pytest.fail(str(why))
        pytest.skip(str(why))
    yield standby
    standby.stop()


@pytest.fixture
def server(replica, tmp_path):
    """One daphne reading the read-only pages from `replica`."""
    primary = database_url(settings.DATABASES["default"])
    env = environment(primary, DATABASE_REPLICA_URL=replica.url(), LOG_LEVEL="WARNING")
    with running(1, env, tmp_path) as (daphne,):
        yield daphne


def sign_up(server, username):
    browser = Browser()
    browser.get(f"{server.url}/accounts/signup/")
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    status, where = browser.submit(f"{server.url}/accounts/signup/", fields)
    assert (status, where) == (200, f"{server.url}/me/")
    return browser


def status_of(browser, url):
    try:
        return browser.get(url)
    except urllib.error.HTTPError as refused:  # a 404 page
        return refused.code, refused.read()


def test_boards_read_the_replica_and_a_players_own_pages_the_primary(replica, server):
    replica.resume_and_catch_up()  # the test database as it is now, on both
    replica.pause()
    zoe = sign_up(server, "zoe_replica")  # the write goes to the primary
    account = Account.objects.get(user=User.objects.get(username="zoe_replica"))
    Account.objects.filter(pk=account.pk).update(rated_games=1, rating=1700)

    someone = Browser()
    assert status_of(someone, f"{server.url}/players/zoe_replica/")[0] == 404
    assert b"zoe_replica" not in status_of(someone, f"{server.url}/ratings/")[1]
    own_profile = status_of(zoe, f"{server.url}/players/zoe_replica/")
    assert own_profile[0] == 200 and b"zoe_replica" in own_profile[1]
    assert b"zoe_replica" in status_of(zoe, f"{server.url}/me/")[1]

    replica.resume_and_catch_up()
    seen = status_of(someone, f"{server.url}/players/zoe_replica/")
    assert seen[0] == 200 and b"zoe_replica" in seen[1]
    assert b"zoe_replica" in status_of(someone, f"{server.url}/ratings/")[1]
