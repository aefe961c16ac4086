"""
An upgrade keeps every row. For each migration of `game` before the latest that changed
data or columns (taken from the migration graph, so a new migration is covered without
touching this file), a database at that migration is filled through the models of that
state — accounts, ranked daily wins on several days, races, entries, moves, ratings,
follows, events, records, whichever exist then — and migrated to the latest. Every row
must still be there with the values it had, every game must replay to the position its
moves reached, and each derived table a migration filled (records, rank counts) must
equal a rebuild from scratch by today's code.

One walk, not one database per migration: PostgreSQL's DDL is transactional, so the
database steps forward one migration at a time, and at each step the fill and the upgrade
run in a savepoint that is then rolled back.
"""

import datetime
from contextlib import contextmanager

import pytest
from django.apps import apps as todays_apps
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import RunPython, RunSQL

from game.engine import Deal as EngineDeal
from game.engine import Game
from game.models import Deal, Entry, RankCount, Record, rank_counts
from game.results import games, records

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

CODE = "HM1-N-AAAAAAB"
DAY = datetime.date(2025, 3, 30)
WIN_DAYS = {"ada": [0, 1, 2, 4, 9], "bob": [1, 2, 9]}
"""Days after DAY each account won the daily deal: runs, a gap, a new week and month."""
AT = datetime.datetime(2025, 3, 30, 12, tzinfo=datetime.UTC)


def derived_tables():
    """The tables migrations fill from other rows, each with today's rebuild and its rows,
    in the order to rebuild them (the counts are counted from the records)."""
    return {
        "Record": (rebuild_records, records_stored),
        "RankCount": (rank_counts.rebuild, counts_stored),
    }


def records_stored():
    fields = [f.attname for f in Record._meta.concrete_fields if f.name != "id"]
    return set(Record.objects.values_list(*fields))


def counts_stored():
    return set(RankCount.objects.exclude(size=0).values_list("board", "key", "size"))


def rebuild_records():
    """Every account's records again, from its ranked daily wins, by today's code."""
    Record.objects.all().delete()
    won = Entry.objects.filter(ranked=True, status=Entry.WON, daily_date__isnull=False)
    dates = {}
    for user_id, date in won.exclude(user=None).values_list("user_id", "daily_date"):
        dates.setdefault(user_id, []).append(date)
    for user_id, found in dates.items():
        records.refresh(user_id, found)


@contextmanager
def rolled_back():
    """A savepoint, rolled back on leaving whatever happened inside."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def migrate(target):
    """Migrate `game` to `target`: a graph node, or ("game", None) for no table at all."""
    MigrationExecutor(connection).migrate([target])


def state_at(node):
    """The historical models (every app's) as they were at `node`."""
    return MigrationLoader(connection).project_state(node).apps


class Filler:
    """Rows made through one state's historical models, with only the fields that state
    has; remembers each row made, so the upgraded database can be checked for it."""

    def __init__(self, apps):
        self.apps, self.made, self.played = apps, [], {}

    def model(self, name):
        app, _, model = name.rpartition(".")
        try:
            return self.apps.get_model(app or "game", model)
        except LookupError:
            return None

    def has(self, name, field):
        model = self.model(name)
        return model is not None and field in {f.name for f in model._meta.get_fields()}

    def make(self, model_name, /, **values):
        """A row of `model_name` ("Race", "auth.User"), or None where the state has none."""
        model = self.model(model_name)
        if model is None:
            return None
        known = {field.name for field in model._meta.get_fields()}
        row = model.objects.create(**{k: v for k, v in values.items() if k in known})
        self.made.append((model._meta.label, row.pk))
        return row

    def game(self, entry, turns):
        """`turns` moves (each a legal move, the second one undone) stored for `entry`."""
        if entry is None or self.model("Move") is None:
            return
        game, seq = Game(EngineDeal.from_code(CODE)), 0
        for turn in range(turns):
            for kind in ["move", "undo"] if turn == 1 else ["move"]:
                slots = list(game.legal_moves()[0]) if kind == "move" else []
                games.apply(game, kind, slots)
                seq += 1
                self.make(
                    "Move",
                    entry=entry,
                    seq=seq,
                    kind=kind,
                    slots=slots,
                    at=AT + datetime.timedelta(seconds=seq),
                )
        self.played[entry.pk] = position(game)


def position(game):
    return game.heights(), game.score, game.moves, game.cards_left


def fill(apps):
    """A small service's rows at one state of the schema: the Filler that made them."""
    filler = Filler(apps)
    users = {name: filler.make("auth.User", username=name) for name in ("ada", "bob", "cy")}
    for number, (name, user) in enumerate(users.items()):
        filler.make(
            "Account",
            user=user,
            player_key=f"key-{name}",
            rating=1500.0 + 40 * number,
            deviation=200.0,
            rated_games=2 - number,
            rated_at=AT,
        )
    deal = filler.make("Deal", code=CODE, source="numbered")
    fill_daily(filler, deal, users)
    fill_races(filler, deal, users)
    fill_friends(filler, users)
    fill_event(filler, deal, users)
    fill_records(filler, users)
    return filler


def race(filler, deal, room, **values):
    """A finished race on `deal`, unless `values` say otherwise."""
    finished = {"status": "finished", "finished_at": AT + datetime.timedelta(minutes=3)}
    return filler.make(
        "Race", room=room, deal=deal, started_at=AT, time_limit_s=900, **finished | values
    )


def entry(filler, race_row, name, user, **values):
    """A won game of `race_row`, unless `values` say otherwise."""
    won = {"status": "won", "time_ms": 60_000, "finished_at": AT + datetime.timedelta(minutes=1)}
    return filler.make(
        "Entry",
        race=race_row,
        player_key=f"key-{name}",
        user=user,
        name=name,
        seq=5,
        moves=4,
        score=40,
        **won | values,
    )


def fill_daily(filler, deal, users):
    """Each account's ranked daily wins on its days, a guest's win, the deals of the days."""
    for offset in range(10):
        date = DAY + datetime.timedelta(days=offset)
        filler.make("DailyDeal", date=date, deal=deal)
        daily = race(filler, deal, f"D{offset:03}", mode="daily", daily_date=date)
        for name, days in WIN_DAYS.items():
            if offset in days:
                won = entry(
                    filler,
                    daily,
                    name,
                    users[name],
                    daily_date=date,
                    ranked=True,
                    review="clean",
                    time_ms=60_000 + 1_000 * offset - 500 * len(name),
                )
                filler.game(won, 3)
        guest = entry(filler, daily, "guest", None, daily_date=date, ranked=False)
        filler.game(guest, 2)


def fill_races(filler, deal, users):
    """A rated quick race with its rating changes, and a race still running."""
    quick = race(filler, deal, "QUICK1", mode="quick", rated=True)
    ada = entry(filler, quick, "ada", users["ada"])
    bob = entry(filler, quick, "bob", users["bob"], status="resigned")
    filler.make("RatedPair", race=quick, day=DAY, low=users["ada"], high=users["bob"])
    for row, user, after in [(ada, users["ada"], 1520.0), (bob, users["bob"], 1480.0)]:
        filler.game(row, 4)
        filler.make(
            "RatingChange",
            entry=row,
            race=quick,
            user=user,
            at=AT,
            rating_before=1500.0,
            deviation_before=350.0,
            volatility_before=0.06,
            rating_after=after,
            deviation_after=290.0,
            volatility_after=0.06,
            wins=int(after > 1500),
            losses=int(after < 1500),
        )
    running = race(filler, deal, "LIVE01", mode="race", status="running", finished_at=None)
    filler.game(
        entry(filler, running, "cy", users["cy"], status="playing", time_ms=None, finished_at=None),
        3,
    )


def fill_records(filler, users):
    """Records as stored where the schema has them (what the counts are counted from)."""
    for name, best_ms in [("ada", 61_234), ("bob", 61_999), ("cy", None)]:
        last = DAY + datetime.timedelta(days=len(name))
        filler.make(
            "Record",
            user=users[name],
            period="all",
            start=datetime.date(2000, 1, 1),
            wins=3,
            last_won=last,
            best_ms=best_ms,
            best_on=best_ms and last,
            streak=2,
            streak_on=last,
        )


def fill_friends(filler, users):
    filler.make("Follow", follower=users["ada"], followed=users["bob"])
    filler.make("Follow", follower=users["cy"], followed=users["ada"])
    filler.make("Block", blocker=users["bob"], blocked=users["cy"])
    filler.make(
        "Challenge",
        challenger=users["ada"],
        challenged=users["bob"],
        created_at=AT,
        expires_at=AT + datetime.timedelta(minutes=5),
    )


def fill_event(filler, deal, users):
    """A rated event over, with its deal, its players' games and a rating change."""
    schedule = filler.make(
        "EventSchedule",
        title="Weekly",
        at=datetime.time(18),
        minutes=30,
        deals=1,
        rated=True,
        weekdays="6",
    )
    event = filler.make(
        "Event", title="Sunday", starts_at=AT, minutes=30, rated=True, schedule=schedule
    )
    if event is None:
        return  # events arrive in 0017
    filler.make("EventDeal", event=event, index=0, deal=deal)
    for name in ("ada", "bob"):
        played = race(filler, deal, f"EV{name}", mode="event")
        player = filler.make(
            "EventEntry",
            event=event,
            player_key=f"key-{name}",
            user=users[name],
            name=name,
            points=100,
            wins=1,
            time_ms=60_000,
            rank=1 if name == "ada" else 2,
        )
        filler.make("EventGame", entry=player, index=0, race=played, points=100)
    if filler.has("RatingChange", "event_entry"):
        filler.make(
            "RatingChange",
            event_entry=player,
            user=users["bob"],
            at=AT,
            rating_before=1500.0,
            deviation_before=350.0,
            volatility_before=0.06,
            rating_after=1490.0,
            deviation_after=300.0,
            volatility_after=0.06,
            losses=1,
        )


def values_of(filler):
    """{(label, pk): {column: value}} of every row the filler made, as stored."""
    stored = {}
    for label, pk in filler.made:
        model = filler.apps.get_model(label)
        row = model.objects.filter(pk=pk).values(*[f.attname for f in model._meta.concrete_fields])
        stored[label, pk] = row.get()
    return stored


def assert_every_row_survived(before):
    """Each row made is still there, with the values of the columns it had."""
    for (label, pk), values in before.items():
        if label == "game.Move":
            continue  # moves are checked through the games they replay: storage may change
        model = todays_apps.get_model(label)
        columns = {f.attname for f in model._meta.concrete_fields} & set(values)
        now = model.objects.filter(pk=pk).values(*columns).first()
        assert now == {c: values[c] for c in columns}, f"{label} {pk}"


def assert_every_game_replays(played):
    deal = Deal.objects.get(code=CODE)
    for entry_id, reached in played.items():
        assert position(games.replay(Entry.objects.get(pk=entry_id), deal)) == reached, entry_id


def upgrade_from(node, leaf):
    """Fill the database at `node`, migrate it to `leaf`, check what came through."""
    filler = fill(state_at(node))
    with connection.cursor() as cursor:  # as at a commit: no check left for a later ALTER
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    before = values_of(filler)
    filled_later = {
        name: checks for name, checks in derived_tables().items() if filler.model(name) is None
    }
    migrate(leaf)
    assert_every_row_survived(before)
    assert_every_game_replays(filler.played)
    upgraded = {name: rows() for name, (_, rows) in filled_later.items()}
    for name, (rebuild, rows) in filled_later.items():
        rebuild()
        assert upgraded[name] == rows(), f"{name} as migrated != rebuilt from scratch"


def columns(loader, node):
    """Each model's fields at `node`, by type and nullability: what a fill can write."""
    models = loader.project_state(node).models.items()
    return {
        key: {
            name: (type(field).__name__, field.null, field.max_length)
            for name, field in model.fields.items()
        }
        for key, model in models
    }


def starts(loader, leaf):
    """Every migration before `leaf` that changed data or columns: a migration that only
    adds an index or a help text leaves the same rows to fill as the one before it."""
    shape, nodes = None, [node for node in loader.graph.forwards_plan(leaf) if node[0] == "game"]
    for node in nodes[:-1]:
        before, shape = shape, columns(loader, node)
        operations = loader.graph.nodes[node].operations
        if shape != before or any(isinstance(op, RunPython | RunSQL) for op in operations):
            yield node


def test_a_filled_database_at_every_migration_upgrades_to_the_latest_keeping_every_row():
    loader = MigrationLoader(connection)
    (leaf,) = loader.graph.leaf_nodes("game")
    migrate(("game", None))
    failed = []
    for node in list(starts(loader, leaf)):
        migrate(node)
        try:
            with rolled_back():
                upgrade_from(node, leaf)
        except Exception as error:  # noqa: BLE001 - every starting point's failure, at once
            failed.append(f"from {node[1]}: {type(error).__name__}: {error}".splitlines()[0])
    assert not failed, "\n".join(failed)
