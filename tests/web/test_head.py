"""HEAD is answered wherever GET is: the same status and headers, no body (a link
checker, a monitor or a cache asking whether a page is there gets 200, not 405)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from game.base import days
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import Deal, SharedRun
from tests.support.server import account_key, racing_alone, win_at_a_persons_pace

NOT_GET = {
    "game:api-races": "POST creates a race",
    "game:api-restart": "POST restarts a solo game",
    "game:api-quick": "POST waits in the queue, DELETE leaves it",
    "game:logout": "POST logs out",
    "set_language": "POST sets the language",
    "game:api-follow": "POST follows, DELETE unfollows",
    "game:api-block": "POST blocks, DELETE unblocks",
    "game:api-answer": "POST accepts, declines or takes back a challenge",
    "game:verification-deal": "POST starts a verification deal",
    "game:api-push-forget": "POST turns a device's reminders off",
    "game:api-share": "POST shares one's finished game",
    "game:shared-race": "POST races a shared game's ghost",
    "game:replay-race": "POST races a replay's game as a ghost",
    "game:replay-play-on": "POST plays on from a replay's position",
    "game:explorer-play-on": "POST plays on from an explorer's position",
    "game:play-later": "POST plays a day that is over, later",
}
"""Routes with no GET at all, so no HEAD either."""


def route_names(resolver=None, namespace=""):
    """Every named route of the site, with its namespace ("game:lobby")."""
    names = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue  # Django's own admin, answered by Django's views
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= route_names(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(namespace + pattern.name)
    return names


def samples(today, won):
    """A URL of every GET route that shows something real, with the status GET gives:
    a finished solo game (its replay), a running race, today's daily board."""
    ada = Client()
    ada.force_login(User.objects.get(username="ada-heads"))
    running = racing_alone("c" * 32)
    date = today.isoformat()
    year, number, _ = today.isocalendar()
    week = f"{year}-W{number:02d}"
    replay = f"{won.race.room}/{won.pk}"
    shared = SharedRun.objects.create(entry=won, token="H" * 22).token
    return (
        ada,
        {
            "game:lobby": ("/", 200),
            "game:play": (f"/play/{RULE_BOOK_DEAL}/", 200),
            "game:race": (f"/race/{running.room}/", 200),
            "game:daily": ("/daily/", 200),
            "game:month": (f"/daily/month/{date[:7]}/", 200),
            "game:archive": ("/daily/archive/", 200),
            "game:archive-month": (f"/daily/archive/{date[:7]}/", 200),
            "game:all-time": ("/daily/all-time/", 200),
            "game:all-time-board": ("/daily/all-time/streaks/", 200),
            "game:leaderboard": (f"/daily/{date}/", 200),
            "game:replay": (f"/replay/{replay}/", 200),
            "game:api-race": (f"/api/races/{running.room}/", 200),
            "game:api-replay": (f"/api/replays/{replay}/", 200),
            "game:api-analysis": (f"/api/replays/{running.room}/1/analysis/", 404),
            "game:api-daily": ("/api/daily/", 200),
            "game:api-leaderboard": (f"/api/daily/{date}/leaderboard/", 200),
            "game:api-daily-ghost": (f"/api/daily/{date}/ghost/", 200),
            "game:signup": ("/accounts/signup/", 302),  # logged in: to the profile
            "game:login": ("/accounts/login/", 200),
            "game:password_change": ("/accounts/password/", 200),
            "game:password_change_done": ("/accounts/password/done/", 200),
            "game:me": ("/me/", 200),
            "game:export": ("/me/export/", 200),
            "game:delete-account": ("/me/delete/", 200),
            "game:profile": ("/players/ada-heads/", 200),
            "game:healthz": ("/healthz", 200),
            "javascript-catalog": ("/jsi18n/0123456789ab/", 200),
            "javascript-catalog-latest": ("/jsi18n/", 200),
            "game:rules": ("/rules/", 200),
            "game:month-board": (f"/daily/month/{date[:7]}/wins/", 200),
            "game:week": ("/daily/week/", 302),  # to this week's board
            "game:week-board-wins": (f"/daily/week/{week}/", 200),
            "game:week-board": (f"/daily/week/{week}/times/", 200),
            "game:explorer": (f"/daily/{date}/explorer/", 403),  # today's: daily_locked
            "game:api-challenges": ("/api/challenges/", 200),
            "game:api-quick-ghost": ("/api/quick/ghost/", 200),
            "game:api-player": ("/api/players/ada-heads/", 200),
            "game:api-ratings": ("/api/ratings/", 200),
            "game:ratings": ("/ratings/", 200),
            "game:events": ("/events/", 200),
            "game:event": ("/events/987654/", 404),
            "game:event-play": ("/events/987654/play/", 404),
            "game:events-calendar": ("/events/calendar.ics", 200),
            "game:event-calendar": ("/events/987654/calendar.ics", 404),
            "game:leagues": ("/leagues/", 200),
            "game:league-week": ("/leagues/2026-W01/", 200),
            "game:reminders": ("/me/reminders/", 200),
            "game:api-push": ("/api/push/?endpoint=https://nowhere.invalid/", 404),
            "game:sw": ("/sw.js", 200),
            "game:manifest": ("/manifest.webmanifest", 200),
            "game:offline-play": ("/offline/play/", 200),
            "game:offline": ("/offline/", 200),
            "game:offline-rules": ("/offline/rules/", 200),
            "game:shared": (f"/shared/{shared}/", 200),
            "game:shared-card": (f"/shared/{shared}/card.svg", 200),
            "game:metrics": ("/metrics", 200),  # the test client's address is loopback
        },
    )


@pytest.mark.django_db
def test_every_get_url_answers_head_with_its_status_and_headers_and_no_body(todays_deal):
    key = account_key("ada-heads")
    won = win_at_a_persons_pace(alone.solo_race(Deal.for_code(RULE_BOOK_DEAL), key, "Ada"), key)
    browser, urls = samples(days.today(), won)
    unlisted = route_names() - set(urls) - set(NOT_GET)
    assert not unlisted, f"routes with no sample here: say what GET shows, or why none: {unlisted}"
    for name, (url, status) in urls.items():
        got = browser.get(url)
        head = browser.head(url)
        assert got.status_code == status, (name, url, got.status_code)
        assert head.status_code == status, (name, url, head.status_code)
        assert head["Content-Type"] == got["Content-Type"], (name, url)
        assert head.content == b"", (name, url)


@pytest.mark.django_db
def test_head_is_not_a_way_around_post_only_routes(client):
    for url in ("/api/races/", "/api/quick/", "/accounts/logout/"):
        assert client.head(url).status_code == 405, url
