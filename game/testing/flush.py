"""
The test database emptied after a test that commits (pytest-django's `transactional_db`,
Django's TransactionTestCase), by deleting the rows of the tables that have any.

Django empties it with `flush`: one TRUNCATE of every table, which on PostgreSQL
makes new files for each table, index and TOAST table and waits for them on disk, then
`post_migrate` makes the content types and permissions again. Measured in a worker:
57 ms of PostgreSQL's CPU, 22 ms of the worker's and a quarter of a second of wall time
a test on a loaded machine, some 240 times a run. Most such tests fill a few tables;
a DELETE of those rows, in one transaction (every foreign key is deferrable), leaves
the same empty tables. The content types and permissions, which no test changes, stay
as `post_migrate` made them the last time; the first time in a process, or if a test
did change them, they are emptied and made again, as Django does. No sequence is reset,
as Django's TransactionTestCase resets none. tests/conftest.py installs it in every
test process.
"""

from django.core.management.sql import emit_post_migrate_signal
from django.db import transaction

MADE_BY_MIGRATE = ("django_content_type", "auth_permission")
"""Tables `post_migrate` fills: kept while they hold what it made."""


def install(test_case_class):
    """`test_case_class` (Django's TransactionTestCase) empties its databases this way,
    on PostgreSQL and when it flushes every app without serialized data to restore;
    otherwise as Django does."""
    django_teardown = test_case_class._fixture_teardown

    def _fixture_teardown(self):
        from django.db import connections

        names = self._databases_names(include_mirrors=False)
        plain = self.available_apps is None and not self.serialized_rollback
        if not plain or any(connections[name].vendor != "postgresql" for name in names):
            return django_teardown(self)
        for name in names:
            empty(connections[name])
        return None

    _fixture_teardown.django_teardown = django_teardown
    test_case_class._fixture_teardown = _fixture_teardown


def empty(connection):
    """Every table of the installed models empty but the content types and permissions
    as migrated; returns the tables whose rows were deleted."""
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        filled = with_rows(cursor, connection, tables)
        remade = dict(as_made(cursor, connection)) != _as_migrated.get(connection.alias)
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        deleted = [t for t in filled if remade or t not in MADE_BY_MIGRATE]
        for table in deleted:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
    if remade:  # as Django's flush does: post_migrate makes them again, with new ids
        emit_post_migrate_signal(verbosity=0, interactive=False, db=connection.alias)
        remember(connection)
    return deleted


def with_rows(cursor, connection, tables):
    """Which of `tables` hold a row, in one query."""
    quote = connection.ops.quote_name
    probes = [f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(t)})" for t in tables]
    cursor.execute(" UNION ALL ".join(probes), tables)
    return [table for (table,) in cursor.fetchall()]


_as_migrated = {}
"""Each database's {table: (rows, highest id)} of MADE_BY_MIGRATE as post_migrate last
made them in this process."""


def remember(connection):
    """What MADE_BY_MIGRATE's tables of `connection`'s database hold now, just made."""
    with connection.cursor() as cursor:
        _as_migrated[connection.alias] = dict(as_made(cursor, connection))


def as_made(cursor, connection):
    """(table, (rows, highest id)) of each of MADE_BY_MIGRATE: a row made or deleted
    changes it (one deleted and one made moves the highest id)."""
    quote = connection.ops.quote_name
    for table in MADE_BY_MIGRATE:
        cursor.execute(f"SELECT count(*), max(id) FROM {quote(table)}")
        yield table, cursor.fetchone()
