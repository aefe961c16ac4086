"""
SQL written once, read as the ORM reads it, on PostgreSQL and SQLite alike.

A page that answers in milliseconds reads its rows by statements written once, as
tuples (game/daily/day_board.py), not models the ORM builds. But the ORM also
converts what the database hands back, and SQLite hands back less than Python has:
what an expression computes (a CASE) as text or a number, a timestamp as a naive one.
The site runs on PostgreSQL and the browser tests' server on SQLite, so the columns
such a statement reads are named as model fields (`Columns`) and each value goes
through that field's converters, the ORM's own (none on PostgreSQL: its rows are
returned as they are); a value compared with a column is passed as its field passes it
(`prepared`). The one thing the two do not write alike, a timestamp plus a number of
seconds, is written for each (`plus_seconds`).
"""

import hashlib

from django.db import connection

from game.base.replica import reader

_PLUS_SECONDS = {
    "postgresql": "{at} + {seconds} * INTERVAL '1 second'",
    "sqlite": "django_format_dtdelta('+', {at}, {seconds} * 1000000)",
}
"""A timestamp plus whole seconds: PostgreSQL adds an interval; on SQLite, Django's own
function for a timestamp plus a duration (microseconds), which writes the sum as
Django stores a timestamp there (naive UTC text, compared as text)."""


def field(model, path):
    """The model field `path` names from `model`, through relations as a query's
    lookups go ("race__deal__code", "user__account__name_hidden", "race__deal_id")."""
    *through, name = path.split("__")
    for step in through:
        model = model._meta.get_field(step).related_model
    return model._meta.get_field(name)


def prepared(model, path, value):
    """`value` as a statement's parameter compared with the column of `field(model,
    path)`: as the ORM passes it (on SQLite a timestamp is naive UTC text)."""
    return field(model, path).get_db_prep_value(value, connection)


def plus_seconds(at, seconds, vendor):
    """SQL for the timestamp `at` plus `seconds` (a column of whole seconds) on `vendor`'s
    database (`connection.vendor`), comparable with a `prepared` timestamp."""
    return _PLUS_SECONDS[vendor].format(at=at, seconds=seconds)


class Columns:
    """What a statement reads, column by column, named as model fields from `model`
    (`field`'s paths): `fetch` returns its rows with each value converted as the ORM
    converts that field's."""

    def __init__(self, model, *paths):
        self.model, self.paths = model, paths
        self._converters = None, []

    def converters(self):
        """[(column index, [(converter, column)])] of the columns that have any on this
        connection, the ORM's (SQLCompiler.get_converters), looked up once a connection
        (and not at import, before the models are all loaded)."""
        ops, found = self._converters
        if ops is not connection.ops:  # one vendor for the primary and a replica
            found = []
            for n, path in enumerate(self.paths):
                col = field(self.model, path).cached_col
                ones = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
                if ones:
                    found.append((n, [(convert, col) for convert in ones]))
            self._converters = connection.ops, found
        return found

    def convert(self, rows):
        """`rows` (tuples of these columns) with their values converted."""
        converters = self.converters()
        if not converters:
            return rows
        converted = []
        for row in rows:
            values = list(row)
            for n, ones in converters:
                for convert, col in ones:
                    values[n] = convert(values[n], col, connection)
            converted.append(tuple(values))
        return converted

    def fetch(self, statement, params):
        """The rows `statement` reads, converted, from where the ORM would read
        `model` (a replica on a replica's page: game/base/replica.py)."""
        with reader(self.model).cursor() as cursor:
            cursor.execute(statement, params)
            return self.convert(cursor.fetchall())


def hold(name):
    """Within a transaction, wait for any other transaction holding `name` and hold it
    until this one ends (PostgreSQL: an advisory lock on the name's hash, seen by every
    process); nothing on SQLite, whose one writer at a time serializes already."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.sha256(name.encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
        )
