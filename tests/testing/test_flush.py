"""
game/testing/flush.py: after a test that commits, every table is empty again, with the
content types and permissions as migrated, the way Django's flush leaves them, and the
teardown it replaces is still Django's flush.
"""

import inspect

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test import TransactionTestCase

from game.models import Deal, Entry, Race
from game.testing import flush

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def table_rows():
    """{table: rows} of every table of the installed models."""
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def fill():
    """Rows in several tables that refer to one another (a race's entry, its account)."""
    ada = User.objects.create(username="ada")
    deal = Deal.for_code("HM1-N-AAAAAAB")
    race = Race.objects.create(room="FLUSH1", deal=deal)
    Entry.objects.create(race=race, player_key="key-ada", user=ada, name="ada")


def test_every_filled_table_is_emptied_and_the_content_types_stay_as_migrated():
    flush.empty(connection)  # the first in a process makes them again, as Django's flush
    kept = set(ContentType.objects.values_list("id", "app_label", "model"))
    permissions = set(Permission.objects.values_list("id", "codename"))
    fill()
    deleted = flush.empty(connection)
    assert {"auth_user", "game_deal", "game_race", "game_entry"} <= set(deleted)
    assert not set(flush.MADE_BY_MIGRATE) & set(deleted)
    rows = table_rows()
    assert {t: n for t, n in rows.items() if n and t not in flush.MADE_BY_MIGRATE} == {}
    assert set(ContentType.objects.values_list("id", "app_label", "model")) == kept
    assert set(Permission.objects.values_list("id", "codename")) == permissions


def test_content_types_a_test_changed_are_made_again_as_djangos_flush_makes_them():
    models = set(ContentType.objects.values_list("app_label", "model"))
    codenames = set(Permission.objects.values_list("codename", flat=True))
    ContentType.objects.filter(app_label="game", model="race").delete()  # its permissions too
    fill()
    deleted = flush.empty(connection)
    assert set(flush.MADE_BY_MIGRATE) <= set(deleted)
    assert set(ContentType.objects.values_list("app_label", "model")) == models
    assert set(Permission.objects.values_list("codename", flat=True)) == codenames
    assert {t: n for t, n in table_rows().items() if n and t not in flush.MADE_BY_MIGRATE} == {}
    assert flush.empty(connection) == []  # as made again: kept from now on


def test_the_teardown_replaced_is_djangos_flush_of_every_table():
    """The private method the suite replaces (tests/conftest.py) still exists and still
    empties the databases with Django's `flush`, which the replacement stands for."""
    ours = TransactionTestCase._fixture_teardown
    assert ours.__module__ == flush.__name__
    django_teardown = inspect.getsource(ours.django_teardown)
    assert "call_command(" in django_teardown and '"flush"' in django_teardown
    assert "reset_sequences=False" in django_teardown  # no sequence reset: none here either
