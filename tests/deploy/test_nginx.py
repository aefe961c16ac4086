"""
The entrance at work: nginx running deploy/nginx.conf in front of two daphne
processes started as docker-compose.yml starts web1 and web2, with compose's
default settings, and reached on a port other than 80, as `docker compose up`
publishes it (http://localhost:8000/). game/testing/entrance.py renders the file
for the test and says what it substitutes: addresses and paths only.

Which replica served a request is read from each daphne's access log, what
nginx did with it from nginx's own; nothing in the app tells players which
process they are on.
"""

import asyncio
import gzip
import http.client
import re
import select
import socket
import time
import urllib.error
import urllib.request
import uuid

import brotli
import pytest
from django.core.management import call_command

from game.engine.examples import RULE_BOOK_DEAL
from game.testing.entrance import entrance
from game.testing.live import Browser, Player
from tests.support.server import entrance_env, eventually, forget_counts

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.nginx, pytest.mark.multiprocess]
SIGNUPS = 3
LIMITS = {"HALFMOON_SIGNUP_ADDRESS_LIMIT": f"{SIGNUPS}/3600"}
"""Accounts one client address may create here."""
PASSWORD = "moon-race-42!"
SLOW_CLIENT_S = 30
"""How long the slow client would go on sending headers: three times nginx's timeout."""


@pytest.fixture(scope="module")
def door(django_db_setup, django_db_blocker, nginx_path, tmp_path_factory):
    """One entrance for the tests that leave its replicas alive. They only talk to it,
    so the database is emptied once, after the replicas have stopped (emptied after
    each test, it would be while the replicas are writing)."""
    from conftest import redis_address, require  # the suite's root conftest

    require("redis")
    env, log_dir = entrance_env(redis_address(), **LIMITS), tmp_path_factory.mktemp("door")
    with entrance(nginx_path, env, log_dir) as front:
        yield front
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def front(door, redis_url):
    """The module's entrance, nothing counted yet against this address's limits."""
    forget_counts(redis_url)
    return door


def test_a_race_is_created_and_players_sign_up_and_log_in_on_a_port_other_than_80(front):
    """Each POST carries the Origin http://127.0.0.1:<port>, as a browser's does; Django
    compares it with the Host nginx passes on, which must keep the port (with `$host`
    every one of them was refused with 403)."""
    url = front.url
    assert front.port != 80
    ada = Browser()
    ada.get(f"{url}/")
    race = ada.post(f"{url}/api/races/", {"deal": RULE_BOOK_DEAL, "name": "Ada"})
    assert race["url"] == f"/race/{race['room']}/"
    ada.get(f"{url}/accounts/signup/")
    fields = {"username": "ada-at-the-door", "password1": PASSWORD, "password2": PASSWORD}
    assert ada.submit(f"{url}/accounts/signup/", fields) == (200, f"{url}/me/")
    elsewhere = Browser()
    elsewhere.get(f"{url}/accounts/login/")
    credentials = {"username": "ada-at-the-door", "password": PASSWORD}
    assert elsewhere.submit(f"{url}/accounts/login/", credentials) == (200, f"{url}/me/")
    assert b"ada-at-the-door" in elsewhere.get(f"{url}/me/")[1]


async def race_with_sockets(front, count):
    """A race created through the entrance and `count` players' sockets open on it
    (each upgraded through nginx to its `state`): (room, players)."""
    host = Browser()
    host.get(f"{front.url}/")
    room = host.post(f"{front.url}/api/races/", {"deal": RULE_BOOK_DEAL, "name": "Ada"})["room"]
    players = [Player(host, front, room)]
    for _ in range(count - 1):
        guest = Browser()
        guest.get(f"{front.url}/race/{room}/")
        players.append(Player(guest, front, room))
    for player in players:
        assert (await player.open())["type"] == "state"
    return room, players


async def test_every_socket_of_a_race_is_upgraded_on_one_replica(front):
    room, players = await race_with_sockets(front, 4)
    connected = f"WSCONNECT /ws/race/{room}/"
    (home,) = await asyncio.to_thread(eventually, lambda: front.replicas_that_logged(connected))
    assert len(home.requests(connected)) == 4
    for player in players:
        await player.close()


async def test_races_are_spread_over_both_replicas(front):
    """The hash is of the room, so races land on both replicas (20 races on one by
    chance: once in half a million runs)."""
    homes = set()
    for _ in range(20):
        room, (player,) = await race_with_sockets(front, 1)
        connected = f"WSCONNECT /ws/race/{room}/"
        (home,) = await asyncio.to_thread(
            eventually, lambda c=connected: front.replicas_that_logged(c)
        )
        homes.add(home.port)
        await player.close()
        if len(homes) == 2:
            return
    pytest.fail(f"20 races, all on the replica on port {homes}")


def test_pages_go_round_robin(front):
    """Six pages on one keep-alive connection (one nginx worker: each has its own turn)."""
    token = uuid.uuid4().hex
    connection = http.client.HTTPConnection("127.0.0.1", front.port, timeout=10)
    for n in range(6):
        connection.request("GET", f"/?page={token}-{n}")
        assert connection.getresponse().read()
    connection.close()

    def where_served():
        where = [front.replicas_that_logged(f"/?page={token}-{n}") for n in range(6)]
        return where if all(where) else None

    served = eventually(where_served)
    assert served, "not every page reached a replica's access log"
    ports = [replica.port for (replica,) in served]
    assert ports[0::2] == [ports[0]] * 3 and ports[1::2] == [ports[1]] * 3
    assert ports[0] != ports[1]


def test_a_1_mb_body_is_refused_at_the_door_without_reaching_a_replica(front):
    token = uuid.uuid4().hex
    connection = http.client.HTTPConnection("127.0.0.1", front.port, timeout=10)
    body, headers = b"x" * 2**20, {"Content-Type": "application/json"}
    connection.request("POST", f"/api/races/?door={token}", body=body, headers=headers)
    assert connection.getresponse().status == 413
    (line,) = eventually(lambda: front.nginx.access_log(token))
    assert line.endswith(" 413 upstream=-")  # nginx opened no connection to a replica
    for replica in front.replicas:  # a request sent after it is logged, this one is not
        urllib.request.urlopen(f"{replica.url}/healthz?after={token}", timeout=10).read()
        assert eventually(lambda r=replica: r.requests(f"after={token}"))
        assert replica.requests(f"door={token}") == []


def trickle(client, until):
    """Send a header line a second until the server closes the connection, or `until`:
    whether it was closed with nothing said."""
    while time.monotonic() < until:
        if select.select([client], [], [], 1)[0]:
            try:
                return client.recv(1024) == b""
            except ConnectionResetError:
                return True
        try:
            client.sendall(b"X-Still-Typing: yes\r\n")
        except OSError:
            return True
    return False


def test_a_client_slow_to_send_its_headers_is_cut_off(front):
    """nginx's client_header_timeout (10 s) counts from the first byte: a client still
    trickling header lines a second apart is cut when it runs out."""
    token = uuid.uuid4().hex
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as client:
        client.sendall(f"GET /?slow={token} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
        assert trickle(client, time.monotonic() + SLOW_CLIENT_S), f"open after {SLOW_CLIENT_S} s"

    def timed_out():
        lines = front.nginx.errors(10**6).splitlines()
        return [line for line in lines if token in line and "client timed out" in line]

    assert "while reading client request headers" in eventually(timed_out)[0]
    assert eventually(lambda: front.nginx.access_log(token))[0].endswith(" 408 upstream=-")
    assert [replica.requests(token) for replica in front.replicas] == [[], []]


def test_an_x_forwarded_for_from_the_client_is_replaced_not_appended(front):
    """A client writing a new address into X-Forwarded-For for each sign-up is still one
    address to the sign-up limit: nginx sets the header to the address it sees, and
    the app believes it from nginx alone (HALFMOON_TRUSTED_PROXIES)."""
    token = uuid.uuid4().hex
    outcomes = []
    for n in range(SIGNUPS + 1):
        browser = Browser()
        browser.get(f"{front.url}/accounts/signup/")
        fields = {"username": f"forger-{n}", "password1": PASSWORD, "password2": PASSWORD}
        forged = {"X-Forwarded-For": f"203.0.113.{n + 1}"}
        outcomes.append(browser.submit(f"{front.url}/accounts/signup/?{token}", fields, forged))
    me = (200, f"{front.url}/me/")
    assert outcomes == [me] * SIGNUPS + [(400, f"{front.url}/accounts/signup/?{token}")]
    clients = eventually(
        lambda: [client for r in front.replicas for client, _ in r.requests(token)]
    )
    assert len(clients) == SIGNUPS + 1 and {peer.split(":")[0] for peer in clients} == {"127.0.0.1"}


def test_metrics_are_not_served_through_the_entrance(front):
    """Each replica's /metrics is for the inside network (Prometheus scrapes the replica
    itself): through nginx it is a 404 that no replica sees, and the replica itself,
    reached from an allowed address, does serve it."""
    token = uuid.uuid4().hex
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{front.url}/metrics?{token}", timeout=10)
    assert refused.value.code == 404
    (line,) = eventually(lambda: front.nginx.access_log(token))
    assert line.endswith(" 404 upstream=-")
    with urllib.request.urlopen(f"{front.replicas[0].url}/metrics", timeout=10) as response:
        assert b"halfmoon_moves_acknowledged_total" in response.read()


def fetched(url, encodings):
    """(headers, body as sent) of a GET asking for `encodings` (Accept-Encoding)."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": encodings})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers, response.read()


def test_pages_come_gzipped_through_the_entrance_and_static_files_as_the_replicas_compressed_them(
    front,
):
    """The page and the translations' script come gzipped (by the replica, passed on);
    a static file comes with the replica's own brotli copy, passed on untouched."""
    headers, body = fetched(f"{front.url}/", "gzip, br")
    assert headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in headers["Vary"]
    page = gzip.decompress(body).decode()
    assert '<html lang="en">' in page
    headers, body = fetched(f"{front.url}/jsi18n/", "gzip")
    assert headers["Content-Encoding"] == "gzip" and b"gettext" in gzip.decompress(body)
    plain_headers, plain = fetched(f"{front.url}/", "identity")
    assert "Content-Encoding" not in plain_headers and b'<html lang="en">' in plain
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page).group(1)
    headers, body = fetched(f"{front.url}{stylesheet}", "gzip, br")
    assert headers["Content-Encoding"] == "br" and "immutable" in headers["Cache-Control"]
    assert b".card" in brotli.decompress(body)
