"""
Every address and form under mutated input: each URL pattern of game/urls.py (the
accounts' sign-up and log-in among them) and the admin's log-in, with mutated path
parameters (NUL, very long, unicode, traversal, %-encodings, bad dates, huge
numbers, bad room codes and usernames), query strings and methods, and mutated
posts (the forms' fields, the API's JSON bodies: bad, nested, huge, wrong types),
by a fresh client, a guest and a logged-in player. Every answer is a deliberate
2xx, 3xx or 4xx: an exception in a view fails the test (the test client raises
it) and no 5xx comes back.

Two parts: a sweep, each mutation once in each place (a rare bug is found every
run, not by luck), and Hypothesis, mutations combined. The frames' own fuzz is
tests/race/test_fuzz.py.
"""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as fuzzing
from hypothesis import strategies as st

from game import urls
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import Deal, SharedRun
from tests.events.test_events import running_event
from tests.support.server import TODAYS_CODE, account_key, guest_key

pytestmark = pytest.mark.django_db

DELIBERATE = {200, 201, 202, 204, 301, 302, 304, 400, 403, 404, 405, 409, 413, 429}
"""What the server answers on purpose; anything else (a 5xx above all) is a bug."""
PASSWORD = "moon-race-42!"
ROUTE_PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")
ROUTES = [str(p.pattern) for p in urls.urlpatterns] + ["admin/login/", "admin/"]
"""Every route walked: the game's URL patterns, the admin's log-in and index."""
CONVERTERS = {str(p.pattern): p.pattern.converters for p in urls.urlpatterns}

TEXTS = ["a%00b", "%00", "x" * 3000, "é", "日本語", "🂡🂱", "\u202eevil", "a b", "<script>"]
TEXTS += ["..", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f", "%25", "%ZZ", "%ED%A0%80", "%C0%AF"]
TEXTS += ["admin'--", "-1", "0", "9" * 30, "2026-02-30", "0000-01-01", "9999-12-31"]
TEXTS += ["2026-13", "2026-00", "-2026-01", "HM1-C-ZZZZZZZ", "HM1-N-zzzzzzz", "hm1-n-aaaaaab"]
"""Values for a text parameter of a route (raw URL text: the server decodes %-escapes)."""
NUMBERS = ["0", "2", "4294967296", "9223372036854775808", "9" * 40]
ROOMS = ["A", "ABCDEFGH", "abcdef", "ZZZZZZ", "IIIIII"]
QUERIES = ["", "?page=0", "?page=" + "9" * 5000, "?page=²", "?page=-1", "?next=//evil.example"]
QUERIES += ["?next=%00", "?a=1&a=2", "?%ZZ=%ZZ"]

FORMS = {
    "accounts/signup/": {"username": "bob", "password1": PASSWORD, "password2": PASSWORD},
    "accounts/login/": {"username": "ada", "password": PASSWORD},
    "admin/login/": {"username": "ada", "password": PASSWORD, "next": "/admin/"},
    "accounts/password/": {
        "old_password": PASSWORD,
        "new_password1": PASSWORD,
        "new_password2": PASSWORD,
    },
    "accounts/logout/": {"next": "/"},
    "daily/": {"name": "Ada"},
    "events/{event_id}/": {"name": "Ada"},
    "i18n/setlang/": {"language": "fr", "next": "/"},
}
"""Each form as a browser posts it; mutated one field at a time."""
BODIES = {
    "api/races/": {"deal": RULE_BOOK_DEAL, "solo": True, "name": "Ada"},
    "api/quick/": {"name": "Ada"},
    "api/daily/{date}/ghost/": {"of": "leader", "name": "Ada"},
}
"""Each API post as the client sends it; mutated one field at a time, or whole."""
MISSING = object()
FIELDS = [MISSING, "", "a\x00b", "x" * 5000, "é日本🂡", ["a", "b"], "7"]
"""A form field's mutations (a list: the field twice)."""
JSON_FIELDS = [*FIELDS, "\ud800", 7, 1e308, True, None, {"a": [1]}, "random", "daily"]
WHOLE = ["", "{", "[]", "null", '"x"', "[" * 3000 + "]" * 3000, '{"a":' * 900 + "1" + "}" * 900]
WHOLE += ['{"pad": "' + "x" * 5000 + '"}', "x" * 70_000, b"\xff\xfe{}"]
"""Whole API bodies: not an object, broken, nested deep, over 4 KiB, over the upload limit."""


def values_for(route, name):
    converter = type(CONVERTERS[route][name]).__name__
    return {"IntConverter": NUMBERS, "RoomConverter": ROOMS}.get(converter, TEXTS)


def fill(route, values):
    """The route's path with its parameters replaced by `values` (a name → value dict)."""
    return "/" + ROUTE_PARAMETER.sub(lambda m: values[m.group(1)], route)


def get_sweep(known):
    """GET every route with each mutated value in each parameter (the others real), and
    with each mutated query; every route with every other method."""
    requests = []
    for route in ROUTES:
        names = ROUTE_PARAMETER.findall(route)
        real = {name: known[name][0] for name in names}
        for name in names:
            for value in values_for(route, name) + known[name]:
                requests.append(("GET", fill(route, {**real, name: value})))
        requests += [("GET", fill(route, real) + query) for query in QUERIES]
        requests += [(method, fill(route, real)) for method in ("HEAD", "PUT", "DELETE", "POST")]
    return requests


def mutated(base, values):
    """`base` with each field in turn set to each of `values` (MISSING: left out)."""
    for field in base:
        for value in values:
            body = {**base, field: value}
            if value is MISSING:
                del body[field]
            yield body


def post_path(route, known):
    """A form's or body's path with its real values (the day, the running event)."""
    return "/" + route.format(date=known["date"][0], event_id=known["event_id"][0])


def post_sweep(known):
    """Each form and API body as sent (by every client), then each field mutated, then
    whole API bodies: (method, path, body, content type, by every client)."""
    posts = []
    for route, form in FORMS.items():
        path = post_path(route, known)
        posts.append(("POST", path, form, None, True))
        posts += [("POST", path, body, None, False) for body in mutated(form, FIELDS)]
    for route, base in BODIES.items():
        path = post_path(route, known)
        posts.append(("POST", path, json.dumps(base), "application/json", True))
        bodies = [json.dumps(body) for body in mutated(base, JSON_FIELDS)] + WHOLE
        posts += [("POST", path, body, "application/json", False) for body in bodies]
    return posts


@pytest.fixture
def known(todays_deal, settings):
    """The real values a route may get (a solo game of the player "ada", the day), and no
    limit or slow password hash in the way of the views."""
    for limit in ("CREATE", "CREATE_ADDRESS", "POLL", "POLL_ADDRESS", "SIGNUP_ADDRESS"):
        setattr(settings, f"HALFMOON_{limit}_LIMIT", "100000/60")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    race = alone.solo_race(Deal.for_code(RULE_BOOK_DEAL), account_key("ada"), "ada")
    user = User.objects.get(username="ada")
    user.set_password(PASSWORD)
    user.save()
    return {
        "room": [race.room, race.room.lower()],
        "player": [str(race.entries.get().pk)],
        "date": [todays_deal.date.isoformat(), "2001-01-01"],
        "month": [todays_deal.date.isoformat()[:7]],
        "code": [TODAYS_CODE, RULE_BOOK_DEAL],
        "username": ["ada"],
        "board": ["wins"],
        "week": ["{}-W{:02d}".format(*todays_deal.date.isocalendar()[:2]), "2001-W01"],
        "challenge": ["1"],
        "answer": ["accept", "decline"],
        "event_id": [str(running_event().pk)],
        "token": [SharedRun.objects.create(entry=race.entries.get(), token="T" * 22).token],
    }


def clients():
    """A fresh client, a guest with a player key, the logged-in player "ada"."""
    guest, player = Client(), Client()
    guest_key(guest)
    player.force_login(User.objects.get(username="ada"))
    return [Client(), guest, player]


def answer(client, method, path, body=None, content_type=None):
    """The answer's status, or the view's exception; in a savepoint, so a request that
    broke the transaction (an error PostgreSQL raised) fails alone."""
    try:
        with transaction.atomic():
            if content_type:
                response = client.generic(method, path, body, content_type=content_type)
            elif body is not None:
                response = client.post(path, body)
            else:
                response = client.generic(method, path)
    except Exception as exc:  # re-raised by the test client: the server would say 500
        return repr(exc)[:200]
    return response.status_code


def undeliberate(requests):
    """The requests not answered on purpose, each with what came back; each request by
    the three clients in turn (the unmutated posts by all three)."""
    every = clients()
    wrong = []
    for turn, (method, path, body, content_type, everyone) in enumerate(requests):
        for client in every if everyone else [every[turn % 3]]:
            outcome = answer(client, method, path, body, content_type)
            if outcome not in DELIBERATE:
                wrong.append((method, path[:100], str(body)[:60], every.index(client), outcome))
    return "\n".join(map(str, wrong))


def test_every_address_answers_mutated_paths_queries_and_methods_on_purpose(known):
    assert not undeliberate([(m, path, None, None, False) for m, path in get_sweep(known)])


def test_every_form_and_api_post_answers_mutated_fields_and_bodies_on_purpose(known):
    assert not undeliberate(post_sweep(known))


@st.composite
def combined_posts(draw, known):
    """A form or API body with any of its fields mutated at once (extra ones too)."""
    route = draw(st.sampled_from([*FORMS, *BODIES]))
    json_body = route in BODIES
    base = BODIES[route] if json_body else FORMS[route]
    values = st.sampled_from(JSON_FIELDS if json_body else FIELDS) | st.text(max_size=30)
    body = {field: draw(st.just(value) | values) for field, value in base.items()}
    body.update(draw(st.dictionaries(st.text(max_size=8), values, max_size=2)))
    body = {field: value for field, value in body.items() if value is not MISSING}
    path = post_path(route, known)
    return (path, json.dumps(body), "application/json") if json_body else (path, body, None)


@given(data=st.data())
@fuzzing(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_posts_with_mutations_combined_are_answered_on_purpose(known, data):
    path, body, content_type = data.draw(combined_posts(known))
    assert not undeliberate([("POST", path, body, content_type, True)])
