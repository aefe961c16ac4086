"""
Helpers for the race server's tests: players with real sessions, websocket
clients on the real ASGI application (origin check, sessions and all), a
fast clock (short countdown) so nothing sleeps long, and for the HTTP tests a
fixed daily deal and a CSRF-enforcing client. For the tests on real daphne
processes: a race's lobby spread over them (`lobby`), outages of the test's own
(`database_proxy`, `private_redis`: tests/support/faults.py), and the environment
of the replicas behind nginx, as compose gives it (`entrance_env`).
"""

import asyncio
import inspect
import json
import re
import time
from datetime import timedelta

import msgspec
import pytest
import yaml
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from django.test import Client, TestCase
from django.utils import timezone

from game.base import days, limits, stores
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.lobby import alone
from game.models import DailyDeal, Deal, Entry, Move, Race
from game.players import accounts, identity
from game.race import actions, frames, moves, schema, splits
from game.results import games
from game.testing.live import ROOT, collected_static, database_url, environment

from .faults import PrivateRedis, Racer, TcpProxy

ORIGIN = (b"origin", b"http://127.0.0.1")
COUNTDOWN_S = 0.2
WIN = [list(move) for move in RULE_BOOK_WIN]


def browser_test(request):
    """Whether the running test is an `e2e` one: its server has settings of its own, and
    these fixtures, once this folder's conftest, are for the other tests."""
    return request.node.get_closest_marker("e2e") is not None


@pytest.fixture(autouse=True)
def fast_race_server(request):
    if browser_test(request):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.HALFMOON_COUNTDOWN_S = COUNTDOWN_S
    settings.HALFMOON_QUICK_SHOW_S = 1  # a quick race's players have this long to connect
    settings.HALFMOON_TIME_LIMIT_S = 900
    settings.HALFMOON_FRAME_RATE, settings.HALFMOON_FRAME_BURST = 20, 200
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    games.cache.clear()
    splits.paces.clear()
    forget_limits()
    yield
    games.cache.clear()
    splits.paces.clear()


@pytest.fixture(autouse=True)
def frames_as_declared(monkeypatch):
    """Every frame a server test sends is as game/race/schema.py declares it: each one
    encoded for a socket is checked, and the test fails at its end on any that was not
    (not where it was sent, where a consumer's own `except` would hide it)."""
    encode, wrong = frames.encoded, []

    def checked(frame):
        try:
            schema.check(frame)
        except msgspec.ValidationError as exc:
            wrong.append((frame.get("type"), str(exc)))
        return encode(frame)

    monkeypatch.setattr(frames, "encoded", checked)
    yield
    assert wrong == [], "frames unlike their declaration in game/race/schema.py"


TODAYS_CODE, GUESTS_CODE = "HM1-N-AAAAAAC", "HM1-N-AAAAAAG"


@pytest.fixture
def todays_deal():
    """Today's daily deals (ranked and guests'), fixed so no test waits on the solver."""
    return DailyDeal.objects.create(
        date=days.today(), deal=Deal.for_code(TODAYS_CODE), guest_deal=Deal.for_code(GUESTS_CODE)
    )


@pytest.fixture
def browser():
    """A client that enforces CSRF like a browser, with the cookies of a first page view."""
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client


def post(client, url, body, **extra):
    token = client.cookies["csrftoken"].value
    return client.post(
        url,
        body if isinstance(body, str | bytes) else json.dumps(body),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
        **extra,
    )


@pytest.fixture
async def close_move_connections():
    """The fast move path keeps a read pool and its lanes' connections per event loop;
    each test has its own loop."""
    yield
    await moves.close_pool()


def pytest_collection_modifyitems(items):
    """Every async server test closes its loop's pool. Not the sync ones: an async
    fixture around a sync test needs a loop of its own, which cannot start while
    the browser tests' Playwright loop runs in the same session."""
    for item in items:
        server_test = item.get_closest_marker("e2e") is None
        if server_test and inspect.iscoroutinefunction(getattr(item, "obj", None)):
            item.fixturenames.append("close_move_connections")


@pytest.fixture
def database_proxy(settings):
    """A proxy in front of the test database that the test can cut (tests/support/faults.py)."""
    db = settings.DATABASES["default"]
    proxy = TcpProxy(db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432))
    yield proxy
    proxy.cut()


@pytest.fixture
def private_redis():
    """A Redis of the test's own, started, that it may stop and start again."""
    from conftest import in_ci  # the suite's root conftest (not importable from a shell)

    redis = PrivateRedis()
    if redis.binary is None:
        problem = "redis-server is not installed (apt-get install redis-server)"
        if in_ci():
            pytest.fail(problem)
        pytest.skip(problem)
    redis.start()
    yield redis
    redis.stop()


def forget_limits():
    """Every test starts with no request or socket counted (in Redis, they outlive a test)."""
    store = limits._store()
    if isinstance(store, limits.MemoryCounts):
        limits._store.clear()
        return
    for pattern in ("limit:*", "sockets:*"):
        for key in store.client.scan_iter(pattern):
            store.client.delete(key)


def guest_key(client):
    """A test client's player key, saved in its session as a page that opens a game
    saves one (the lobby gives none: a look costs no session row)."""
    session = client.session
    key = identity.player_key(session)
    session.save()
    return key


@pytest.fixture(autouse=True)
def private_cache(request):
    """A cache of each test's own (the log-in throttle's failure counts live in it): a
    test that fails log-ins, as the URL fuzz does, never locks the next one out."""
    if browser_test(request):
        return
    settings = request.getfixturevalue("settings")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "server-tests",
        }
    }
    from django.core.cache import cache

    cache.clear()


def forget_counts(redis_url):
    """The limits' counts and log-in failures in the Redis at `redis_url` (real server
    processes'), which earlier requests from this address (another test's, an earlier
    run's) may still fill for their hour."""
    client = stores.redis_client(redis_url)
    for pattern in ("limit:*", "*login-failures:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


def new_session(name=None):
    """A saved session with a player key: (session key, player key)."""
    session = SessionStore()
    key = identity.player_key(session)
    if name:
        identity.remember_name(session, name)
    session.save()
    return session.session_key, key


PACE = (0.6, 1.4, 0.9, 1.1, 0.5, 1.5)
"""A person's think times, as shares of their average: they vary (the result checks
flag a steady clock), and six of them sum to six."""


def move_clock(gap_s, shares=PACE, moves=48):
    """Seconds from the start to each of the rule book's 48 moves (or `moves` moves):
    each gap `gap_s` times the next of `shares` (a person's by default, `gap_s` apart
    on average)."""
    times, at = [], 0.0
    for index in range(moves):
        at += gap_s * shares[index % len(shares)]
        times.append(at)
    return times


def as_committed(action, *args):
    """`action(*args)`, then the callbacks it left for its commit, as that commit would
    run them. A test's own transaction never commits: a move's game, which the game
    cache takes back only once the move is committed, was replayed from every stored
    move at the next one (a 48-move win: 1,128 moves replayed). In autocommit (a
    transactional test) the action commits, and Django ran them already."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return action(*args)


def win_at_a_persons_pace(race, key, gap_s=3):
    """Play the rule book's 48-move win in `race` (on the rule book's layout), the
    moves stored at a person's pace (`gap_s` seconds apart on average, from the
    start), so the win is judged clean. Returns the player's Entry."""
    return win_on_clock(race, key, move_clock(gap_s))


def win_on_clock(race, key, clock=None, line=WIN):
    """Play the rule book's 48-move win (or another winning `line`) in `race`, each move
    stored `clock[i]` seconds after the start (None: as fast as the test plays them).
    Returns the Entry."""
    actions.connect(race.room, key, "test-socket")
    for seq, slots in enumerate(line[:-1], start=1):
        as_committed(actions.move, race.room, key, seq, list(slots))
    if clock is not None:
        start = timezone.now() - timedelta(seconds=clock[-1])
        Race.objects.filter(pk=race.pk).update(started_at=start)
        stored = list(Move.objects.filter(entry__race=race))
        for move in stored:
            move.at = start + timedelta(seconds=clock[move.seq - 1])
        Move.objects.bulk_update(stored, ["at"])
    as_committed(actions.move, race.room, key, len(line), list(line[-1]))
    return Entry.objects.select_related("race").get(race=race, player_key=key)


OLD_ENOUGH = timedelta(days=30)
"""The age of the tests' accounts: old enough to rank (`accounts.may_rank`)."""


def account_key(username, age=OLD_ENOUGH):
    """The player key of a new account `username` (made without a browser), `age` old."""
    key = username.ljust(32, "k")
    user = User.objects.create(username=username, date_joined=timezone.now() - age)
    accounts.claim(user, key)
    return key


def signed_up(username, age=OLD_ENOUGH):
    """A browser that signed up as `username` (logged in), the account `age` old."""
    client = Client()
    password = "moon-race-42!"
    answer = client.post(
        "/accounts/signup/", {"username": username, "password1": password, "password2": password}
    )
    assert answer.status_code == 302, answer.content
    User.objects.filter(username=username).update(date_joined=timezone.now() - age)
    return client


def ranked_daily_win(day, username, gap_s=3):
    """A new account's daily attempt at `day` (a DailyDeal on the rule book's layout),
    won at a person's pace: a ranked result. Returns its Entry."""
    key = account_key(username)
    return win_at_a_persons_pace(alone.daily_race(day, key, username), key, gap_s)


def rule_book_race(host_key, mode=Race.RACE, name=None):
    return actions.create_race(Deal.for_code(RULE_BOOK_DEAL), host_key, mode=mode, name=name)


def racing_alone(host_key, deal=None, name="Ada"):
    """A race of one player (so with the race's time limit), past its countdown and
    running, its board in this process's cache. Made in one transaction: run against a
    live server (a seed through `live.manage`), the server's presence heartbeat would
    otherwise count the player, connected by no socket of its, gone before the countdown
    ended, and the start drops an entry gone (1 seed in some hundred lost its entry)."""
    with transaction.atomic():
        race = actions.create_race(deal or Deal.for_code(RULE_BOOK_DEAL), host_key, name=name)
        actions.connect(race.room, host_key, "test-socket")
        actions.start(race.room, host_key)
        Race.objects.filter(pk=race.pk).update(starts_at=timezone.now())
        actions.sync(race.room, host_key)
    race.refresh_from_db()
    return race


class Socket:
    """A websocket client of one player (or spectator) in one room."""

    def __init__(self, room, session_key=None, origin=ORIGIN):
        from halfmoon_site.asgi import application

        headers = [origin] if origin else []
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.communicator = WebsocketCommunicator(application, f"/ws/race/{room}/", headers)
        self.seen = []

    async def open(self):
        connected, code = await self.communicator.connect(timeout=5)
        assert connected, code
        return await self.expect("state")

    async def send(self, **frame):
        await self.communicator.send_to(text_data=json.dumps(frame))

    async def send_text(self, text):
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout=3):
        message = await self.communicator.receive_output(timeout)
        if message["type"] == "websocket.close":
            self.closed = message.get("code")
            return {"type": "closed", "code": message.get("code")}
        frame = json.loads(message["text"])
        self.seen.append(frame)
        return frame

    async def expect(self, kind, timeout=3):
        """The next frame of `kind`, skipping others (kept in `seen`)."""
        while True:
            frame = await self.receive(timeout)
            if frame["type"] == kind:
                return frame
            assert frame["type"] != "closed", f"closed while waiting for {kind}: {frame}"

    async def request(self, kind, **frame):
        await self.send(type=kind, **frame)

    async def silent(self, timeout=0.2):
        return await self.communicator.receive_nothing(timeout)

    async def close(self):
        await self.communicator.disconnect()


async def session(name=None):
    return await database_sync_to_async(new_session)(name)


async def started_race(*names, mode=Race.RACE):
    """A running race with one connected socket per name: (race, [(socket, state)])."""
    keys = [await session() for _ in names]
    race = await database_sync_to_async(rule_book_race)(keys[0][1], mode=mode)
    players = []
    for (session_key, _), name in zip(keys, names, strict=True):
        socket = Socket(race.room, session_key)
        await socket.open()
        await socket.request("join", name=name)
        await socket.expect("state")
        players.append(socket)
    if mode == Race.RACE:
        await players[0].request("start")
    states = []
    for socket in players:
        await socket.expect("started")
        states.append(await socket.expect("state"))
    return race, list(zip(players, states, strict=True))


async def close_all(*sockets):
    for socket in sockets:
        await socket.close()
    await asyncio.sleep(0)


async def polled(probe, done, within_s, every_s=0.1):
    """`await probe()` again and again until `done(result)` holds or `within_s` have
    passed; the last result, for the test to assert on. For what a test used to sleep
    `within_s` for before looking once, when it can be seen sooner."""
    deadline = time.monotonic() + within_s
    while True:
        result = await probe()
        if done(result) or time.monotonic() >= deadline:
            return result
        await asyncio.sleep(every_s)


async def lobby(servers, names):
    """A race on the rule book's deal hosted by names[0] on servers[0], each next player
    joining through the next server in turn (real daphne processes), all in the lobby:
    (room, [Player], [player id])."""
    from game.testing.live import Browser, Player

    browsers = [Browser() for _ in names]
    host = servers[0]
    browsers[0].get(f"{host.url}/")
    body = {"deal": RULE_BOOK_DEAL, "name": names[0]}
    room = browsers[0].post(f"{host.url}/api/races/", body)["room"]
    players, ids = [], []
    for n, (browser, name) in enumerate(zip(browsers, names, strict=True)):
        server = servers[n % len(servers)]
        if n:
            browser.get(f"{server.url}/race/{room}/")
        player = Player(browser, server, room)
        state = await player.open()
        if n:
            await player.send("join", name=name)
            state = await player.expect("state")
        players.append(player)
        ids.append(state["you"]["player"])
    return room, players, ids


async def lobby_on_two_servers(one, two):
    """Ada hosts a race on server one and Bob joins it on server two (real daphne
    processes): (room, Bob's player id, Ada's socket, Bob's socket), both in the lobby."""
    room, (ada, bob), (_, bob_id) = await lobby([one, two], ["Ada", "Bob"])
    while (await ada.expect("player_joined"))["player"]["name"] != "Bob":
        pass  # Ada's own arrival came first
    return room, bob_id, ada, bob


async def racers_on(servers, names):
    """A started race of `names`, joining alternately through each server (real daphne
    processes, or the entrance), as racers of tests/support/faults.py."""
    _, players, ids = await lobby(servers, names)
    await players[0].send("start")
    for player in players:
        await player.expect("started")
        await player.expect("state")
    return [
        Racer(player, player_id, servers, seed)
        for seed, (player, player_id) in enumerate(zip(players, ids, strict=True))
    ]


COMPOSE_DEFAULT = re.compile(r"^\$\{\w+:-(.*)\}$")


def compose_defaults():
    """The replicas' environment as docker-compose.yml sets it when nothing is given:
    each ${NAME:-default} its default, what it requires (${NAME:?...}) left out, and
    its PostgreSQL and Redis addresses left to the test."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    variables = {}
    for name, value in compose["services"]["web1"]["environment"].items():
        default = COMPOSE_DEFAULT.match(str(value))
        if default:
            variables[name] = default.group(1)
        elif "${" not in str(value):
            variables[name] = str(value)
    return {k: v for k, v in variables.items() if k not in ("DATABASE_URL", "REDIS_URL")}


def entrance_env(redis_url, **extra):
    """The environment of the replicas behind nginx (game/testing/entrance.py):
    compose's defaults (DEBUG=0, CSRF_TRUSTED_ORIGINS empty...) and what a test must
    add: a key, plain-HTTP cookies (Python's cookie jar, unlike a browser, sends no
    Secure cookie to http://127.0.0.1), an access log written as it goes, as the
    Dockerfile has it, short clocks, and `extra`. Compose's proxy address
    (HALFMOON_TRUSTED_PROXIES, 172.30.80.10) is the test's nginx: 127.0.0.1."""
    added = {
        "SECRET_KEY": "entrance-tests-only-" + "k" * 40,
        "HALFMOON_TRUSTED_PROXIES": "127.0.0.1",
        "HALFMOON_DAILY_SECRET": "entrance-tests-only-daily-" + "d" * 32,
        "SECURE_COOKIES": "0",
        "PYTHONUNBUFFERED": "1",
        "STATIC_ROOT": str(collected_static()),
        "LOG_LEVEL": "WARNING",
        "HALFMOON_COUNTDOWN_S": "0.3",
        "HALFMOON_DAILY_SOLVE_S": "0.05",
    }
    from django.conf import settings  # the module's `settings` are the fixture's

    database = database_url(settings.DATABASES["default"])
    return environment(database, redis_url, **{**compose_defaults(), **added, **extra})


def eventually(condition, within_s=10):
    """`condition()` once it is true, or its last value after `within_s`: logs are
    written as requests end, a moment after the client has its answer."""
    deadline = time.monotonic() + within_s
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


async def running_race(one, two):
    """Ada and Bob's race on two servers, started: (room, Bob's id, Ada's and Bob's sockets)."""
    room, bob_id, ada, bob = await lobby_on_two_servers(one, two)
    await ada.send("start")
    for socket in (ada, bob):
        await socket.expect("started")
        await socket.expect("state")
    return room, bob_id, ada, bob


def event_admin_form(deal):
    """The admin's add-event form, filled: one deal, starting in two hours."""
    start = timezone.now() + timedelta(hours=2)
    return {
        "title": "Tonight",
        "starts_at_0": start.strftime("%Y-%m-%d"),
        "starts_at_1": start.strftime("%H:%M:%S"),
        "minutes": 30,
        "deals-TOTAL_FORMS": 1,
        "deals-INITIAL_FORMS": 0,
        "deals-MIN_NUM_FORMS": 0,
        "deals-MAX_NUM_FORMS": 1000,
        "deals-0-index": 0,
        "deals-0-deal": deal.pk,
    }
