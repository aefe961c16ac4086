"""
Template tags and filters show what the view gives them and run no query: a query in a
tag is one the view cannot see (nor the layer contract, the template engine reaches any
package). Each page that uses game/templatetags is rendered with every tag and filter of
ours counting the queries it runs.
"""

import functools
import json

import pytest
from django.db import connection
from django.template.base import FilterExpression
from django.template.library import InclusionNode, SimpleNode
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.race.test_fair_play import A_DAY, daily_result
from tests.support.server import signed_up

pytestmark = pytest.mark.django_db


def ours(func):
    return getattr(func, "__module__", "").startswith("game.templatetags")


@pytest.fixture
def querying_tags(monkeypatch):
    """The names of our tags and filters that ran a query while a page rendered."""
    found = []

    def counted(func, name):
        @functools.wraps(func)
        def run(*args, **kwargs):
            with CaptureQueriesContext(connection) as queries:
                result = func(*args, **kwargs)
            found.extend(f"{name}: {query['sql']}" for query in queries.captured_queries)
            return result

        return run

    def node_render(render):
        def run(self, context):
            if not ours(self.func):
                return render(self, context)
            return counted(render, self.func.__name__)(self, context)

        return run

    for node in (SimpleNode, InclusionNode):
        monkeypatch.setattr(node, "render", node_render(node.render))
    resolve = FilterExpression.resolve

    def filtered(self, context, ignore_failures=False):
        given = self.filters
        self.filters = [(counted(f, f.__name__) if ours(f) else f, a) for f, a in given]
        try:
            return resolve(self, context, ignore_failures)
        finally:
            self.filters = given

    monkeypatch.setattr(FilterExpression, "resolve", filtered)
    return found


def test_the_pages_template_tags_run_no_query(querying_tags):
    ada, bob = signed_up("ada"), signed_up("bob")
    ada.post("/api/follows/bob/", json.dumps({}), content_type="application/json")
    bob.post("/api/follows/ada/", json.dumps({}), content_type="application/json")
    daily_result(A_DAY, "ada")
    daily_result(A_DAY, "bob", ms=70_000)
    pages = [
        "/",
        "/players/bob/",
        "/me/",
        "/ratings/",
        "/daily/all-time/",
        "/daily/all-time/times/?view=friends",
        f"/daily/{A_DAY.isoformat()}/",
        f"/daily/month/{A_DAY:%Y-%m}/",
        f"/daily/month/{A_DAY:%Y-%m}/wins/",
    ]
    for page in pages:
        assert ada.get(page).status_code == 200, page
    assert Client().get("/players/bob/").status_code == 200
    assert querying_tags == []


def test_a_querying_tag_is_caught(querying_tags):
    """The check itself: a filter of ours that reads the database is named."""
    from django.template import Context, Template

    from game.templatetags import halfmoon

    def reads(value):
        from django.contrib.auth.models import User

        return User.objects.count()

    reads.__module__ = halfmoon.__name__
    template = Template("{{ 1 }}")
    template.nodelist[0].filter_expression.filters = [(reads, [])]
    template.render(Context({}))
    assert querying_tags and querying_tags[0].startswith("reads:")


EVIL = '<b onclick="x">Ann & "Bo"'


def test_the_rows_filled_in_python_escape_every_name_and_word():
    """The boards' and the profile's rows are filled by game/web/markup.py: a name is
    text, never markup, in every one of them."""
    import datetime

    from game.models import Entry
    from game.templatetags import halfmoon

    day = {"rank": 1, "name": EVIL, "status": Entry.WON, "score": 104, "moves": 120}
    day |= {"time_ms": 83_000, "undos": 0, "ranked": True, "you": True, "replay": "/r/?a=1&b"}
    record = {"rank": 2, "name": EVIL, "value": 3, "reached": datetime.date(2026, 11, 3)}
    record |= {"share": 0.5, "you": False}
    rating = {"rank": 3, "name": EVIL, "shown": "1500?", "deviation": 80, "rank_name": EVIL}
    rating |= {"you": False}
    filled = [
        halfmoon.day_chart_lines([day]),
        halfmoon.day_table_rows([day]),
        halfmoon.record_chart_lines([record], "wins"),
        halfmoon.record_table_rows([record], "wins"),
        halfmoon.rating_rows([rating]),
        halfmoon.history_bars(
            [{"won": True, "x": 1, "y": 2, "width": 3, "height": 4, "title": EVIL}]
        ),
    ]
    for markup in filled:
        assert "<b" not in markup and "&lt;b onclick=&quot;x&quot;&gt;" in markup, markup
    assert 'href="/r/?a=1&amp;b"' in filled[1]
    assert 'class="you" aria-current="true"' in filled[1]
