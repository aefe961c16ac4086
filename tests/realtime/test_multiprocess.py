"""
Two real daphne processes on one PostgreSQL database and one Redis: players on
different processes race each other, and a player who moves between processes
continues from the exact board with no accepted move lost.
"""

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from game.models import Entry, Race
from game.results import move_log
from game.testing.live import Browser, Player, database_url, environment, running
from tests.support.server import WIN, lobby, lobby_on_two_servers

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def servers(request, redis_url, tmp_path):
    """Two daphne processes; the channel layer is the default unless parametrized."""
    env = environment(
        database_url(settings.DATABASES["default"]),
        redis_url,
        CHANNEL_LAYER=getattr(request, "param", settings.CHANNEL_LAYER),
        HALFMOON_COUNTDOWN_S="0.3",
        HALFMOON_FRAME_BURST="200",
        HALFMOON_DAILY_SOLVE_S="0.05",
        LOG_LEVEL="WARNING",
    )
    with running(2, env, tmp_path) as servers:
        yield servers


async def race_on_two_servers(one, two):
    """Ada's race on server one, Bob on server two: started, both with their boards."""
    room, _, ada_socket, bob_socket = await lobby_on_two_servers(one, two)
    await ada_socket.send("start")
    for socket in (ada_socket, bob_socket):
        await socket.expect("countdown")
        await socket.expect("started")
        await socket.expect("state")
    return room, ada_socket.browser, bob_socket.browser, ada_socket, bob_socket


def stored_moves(room, name):
    entry = Entry.objects.get(race__room=room, name=name)
    return entry, [(row.seq, row.kind, row.slots) for row in move_log.rows(entry)]


@pytest.mark.parametrize("servers", ["pubsub", "core"], indirect=True)
async def test_two_players_on_two_processes_race_each_other_to_stored_standings(servers):
    one, two = servers
    room, _, _, ada, bob = await race_on_two_servers(one, two)
    for seq, move in enumerate(WIN, start=1):
        await ada.send("move", seq=seq, slots=move)
        assert (await ada.expect("moved"))["seq"] == seq
    seen = []
    while len(seen) < len(WIN):
        seen.append(await bob.expect("progress"))
    assert [p["slots"] for p in seen] == WIN and seen[-1]["status"] == "won"
    await bob.send("move", seq=1, slots=WIN[0])
    await bob.expect("moved")
    bob_id = (await sync(bob))["you"]["player"]
    assert (await ada.expect("progress", player=bob_id))["moves"] == 1
    await bob.send("resign")
    finished = await ada.expect("finished")
    assert finished == await bob.expect("finished")
    assert [(s["name"], s["status"]) for s in finished["standings"]] == [
        ("Ada", "won"),
        ("Bob", "resigned"),
    ]
    race = await database_sync_to_async(Race.objects.get)(room=room)
    assert race.status == Race.FINISHED and race.finished_at is not None
    entry, moves = await database_sync_to_async(stored_moves)(room, "Ada")
    assert (entry.status, entry.score, entry.moves) == ("won", 520, 48)
    assert [slots for _, _, slots in moves] == WIN
    await ada.close()
    await bob.close()


async def test_a_player_who_moves_to_the_other_process_continues_from_the_exact_board(servers):
    one, two = servers
    room, ada_browser, _, ada, bob = await race_on_two_servers(one, two)
    sent = []  # (seq, kind, slots) of every move or undo the server acknowledged

    async def play(socket, seq, kind, slots=None):
        await socket.send(kind, seq=seq, **({"slots": slots} if slots else {}))
        moved = await socket.expect("moved")
        sent.append((seq, kind, list(moved["slots"]) if kind == "undo" else slots))
        return moved

    for seq, move in enumerate(WIN[:6], start=1):
        await play(ada, seq, "move", move)
    await play(ada, 7, "undo")
    before = await sync(ada)
    # A move sent just before the socket drops: the player cannot know if it landed.
    await ada.send("move", seq=8, slots=WIN[5])
    await ada.close()

    ada = Player(ada_browser, two, room)
    after = await ada.open()
    landed = after["board"]["seq"] == 8
    assert after["board"]["seq"] in (7, 8)
    if not landed:
        assert after["board"] == before["board"]
    retried = await play(ada, 8, "move", WIN[5])
    assert retried["moves"] == 6 and retried["seq"] == 8
    for seq, move in enumerate(WIN[6:12], start=9):
        await play(ada, seq, "move", move)
    here = await sync(ada)
    await ada.close()

    ada = Player(ada_browser, one, room)  # back to the first process: its cache is stale
    again = await ada.open()
    assert again["board"] == here["board"] and again["you"] == here["you"]
    for seq, move in enumerate(WIN[12:], start=15):
        await play(ada, seq, "move", move)
    assert (await sync(ada))["board"]["status"] == "won"

    seen_by_bob = []
    while not seen_by_bob or seen_by_bob[-1]["status"] != "won":
        seen_by_bob.append(await bob.expect("progress"))
    assert seen_by_bob[-1]["score"] == 520

    entry, moves = await database_sync_to_async(stored_moves)(room, "Ada")
    assert [(seq, kind, slots) for seq, kind, slots in moves] == sent
    assert entry.seq == sent[-1][0] and entry.status == "won"
    await ada.close()
    await bob.close()


async def sync(socket):
    await socket.send("sync")
    return await socket.expect("state")


async def test_a_spectator_on_another_process_misses_no_move_of_a_race_held_by_one_process(
    servers,
):
    """The race's process keeps its frames from Redis while it has the race to itself;
    from the moment a socket of the race opens elsewhere, every frame reaches it."""
    one, two = servers
    room, (ada, bob), _ = await lobby([one, one], ["Ada", "Bob"])
    await ada.send("start")
    for socket in (ada, bob):
        await socket.expect("started")
        await socket.expect("state")
    for seq, move in enumerate(WIN[:3], start=1):
        await ada.send("move", seq=seq, slots=move)
        await ada.expect("moved", seq=seq)
    browser = Browser()
    browser.get(f"{two.url}/race/{room}/")
    spectator = Player(browser, two, room)
    event = (await spectator.open())["event"]
    for seq, move in enumerate(WIN[3:8], start=4):
        await ada.send("move", seq=seq, slots=move)
        progress = await spectator.expect("progress", seq=seq)
        assert progress["event"] == event + 1, "a frame went missing on the way"
        event = progress["event"]
