"""
A backup restores (docs/operations.md, "Data"): a populated database — accounts,
ranked daily wins, a race with its moves, follows — dumped with `pg_dump -Fc` and
restored with `pg_restore` into a fresh database serves, from a real server started on
it, the same day's board, month, profile and replays as a server on the original.
"""

import datetime
import json
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from game.base import days
from game.models import Entry, Follow, Race
from game.race import actions
from game.testing.live import database_url, environment, running
from tests.daily.test_ghosts import rule_book_layout
from tests.support.server import WIN, account_key, ranked_daily_win, rule_book_race

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.multiprocess,
    pytest.mark.django_db(transaction=True),
]

TOOLS = ("pg_dump", "pg_restore")
"""From Debian's postgresql-client-15 (.ci/run installs it)."""


@pytest.fixture
def pg_tools():
    found = {tool: shutil.which(tool) or f"/usr/bin/{tool}" for tool in TOOLS}
    missing = [tool for tool, path in found.items() if not Path(path).is_file()]
    if missing:
        from conftest import in_ci  # the suite's root conftest (not importable from a shell)

        problem = f"{', '.join(missing)} not found — `apt-get install postgresql-client-15`"
        if in_ci():
            pytest.fail(f"{problem} (CI is set, so this is a failure, not a skip)")
        pytest.skip(problem)
    return found


def raced(ada, bob):
    """A finished race of ada's and bob's: ada moved six times, then both resigned."""
    race = rule_book_race(ada, name="ada")
    actions.connect(race.room, ada, "socket-a")
    actions.join(race.room, bob, "bob", "socket-b")
    actions.start(race.room, ada)
    Race.objects.filter(pk=race.pk).update(starts_at=timezone.now() - datetime.timedelta(seconds=1))
    actions.tick(race.room)
    for seq, slots in enumerate(WIN[:6], start=1):
        actions.move(race.room, ada, seq, slots)
    actions.resign(race.room, ada)
    actions.resign(race.room, bob)
    return Entry.objects.get(race=race, player_key=ada)


def populate():
    """Yesterday's ranked wins of ada, bob and cat, a race with moves, two follows: what
    the pages compared read. Returns (the day, a daily entry, the race's entry)."""
    day = rule_book_layout(days.today() - datetime.timedelta(days=1))
    wins = [ranked_daily_win(day, name, gap) for name, gap in (("ada", 3), ("bob", 4), ("cat", 5))]
    assert all(win.ranked for win in wins)
    users = {win.user.username: win.user for win in wins}
    Follow.objects.create(follower=users["ada"], followed=users["bob"])
    Follow.objects.create(follower=users["bob"], followed=users["ada"])
    race_entry = raced(wins[0].player_key, account_key("dan"))
    return day.date, wins[0], race_entry


@pytest.fixture
def fresh_database():
    """An empty database beside the test database: its URL; dropped afterwards."""
    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url({**db, "NAME": name})
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def dump_and_restore(tools, source, target, dump):
    """The operator's commands (docs/operations.md): `pg_dump -Fc`, then `pg_restore`."""
    subprocess.run([tools["pg_dump"], "-Fc", "--no-owner", "-d", source, "-f", dump], check=True)
    restore = [tools["pg_restore"], "--no-owner", "--exit-on-error", "-d", target, dump]
    subprocess.run(restore, check=True)


def fetch(server, path):
    with urllib.request.urlopen(f"{server.url}{path}", timeout=10) as response:
        assert response.status == 200, path
        return response.read().decode()


VARYING = re.compile(r'\s(?:nonce|value)="[^"]*"|name="csrfmiddlewaretoken"')
"""What differs between two answers of one page: the CSP nonce, the CSRF token."""


def main(html):
    """A page's content (its <main>), without what differs from one answer to the next."""
    found = re.search(r"<main\b.*?</main>", html, re.S)
    assert found, html[:300]
    return VARYING.sub("", found.group(0))


def board(server, date):
    answer = json.loads(fetch(server, f"/api/daily/{date.isoformat()}/leaderboard/"))
    return [(line["rank"], line["name"], line["time_ms"]) for line in answer["entries"]]


def served(server, date, daily, race_entry):
    """What the comparison reads of one server: boards, a profile, both replays."""
    month = f"{date:%Y-%m}"
    pages = [
        f"/daily/{date.isoformat()}/",
        f"/daily/month/{month}/",
        f"/daily/month/{month}/wins/",
        "/players/ada/",
        f"/replay/{daily.race.room}/{daily.pk}/",
        f"/replay/{race_entry.race.room}/{race_entry.pk}/",
    ]
    replays = [
        json.loads(fetch(server, f"/api/replays/{entry.race.room}/{entry.pk}/"))
        for entry in (daily, race_entry)
    ]
    player = json.loads(fetch(server, "/api/players/ada/"))
    return {
        "board": board(server, date),
        "pages": {path: main(fetch(server, path)) for path in pages},
        "replays": replays,
        "player": player,
    }


def test_a_dump_restored_into_a_fresh_database_serves_the_same_pages(
    pg_tools, fresh_database, tmp_path
):
    date, daily, race_entry = populate()
    ranked = Entry.objects.filter(daily_date=date, ranked=True).order_by("time_ms")
    expected = [(rank, entry.name, entry.time_ms) for rank, entry in enumerate(ranked, start=1)]
    assert [name for _, name, _ in expected] == ["ada", "bob", "cat"]
    original = database_url(settings.DATABASES["default"])
    dump_and_restore(pg_tools, original, fresh_database, tmp_path / "halfmoon.dump")

    logs = [tmp_path / "original", tmp_path / "restored"]
    for log in logs:
        log.mkdir()
    with (
        running(1, environment(original, LOG_LEVEL="WARNING"), logs[0]) as (first,),
        running(1, environment(fresh_database, LOG_LEVEL="WARNING"), logs[1]) as (second,),
    ):
        before = served(first, date, daily, race_entry)
        after = served(second, date, daily, race_entry)

    assert before["board"] == expected
    assert after["board"] == before["board"]
    for path, page in before["pages"].items():
        assert after["pages"][path] == page, path
    day_page = after["pages"][f"/daily/{date.isoformat()}/"]
    assert all(name in day_page for name in ("ada", "bob", "cat"))
    assert 'href="/players/bob/"' in after["pages"]["/players/ada/"]  # ada follows bob
    assert after["replays"] == before["replays"]
    moves = [step for step in after["replays"][1]["steps"] if step["kind"] == "move"]
    assert len(moves) == 6  # the race's moves, however they are stored
    assert after["player"] == before["player"]
    assert after["player"]["stats"]["won"] == 1
