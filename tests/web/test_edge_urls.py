"""Edge input in a URL's date, week, month or number is a 404 that says how a good one
looks, never a 500: the day, week or month before or after it is always a date."""

import pytest

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999"
EDGES = [
    "/daily/week/1-W1/",
    "/daily/week/1-W1/wins/",
    "/daily/week/0-W1/",
    "/daily/week/10000-W1/",
    "/daily/week/9999-W52/",
    "/daily/week/2026-W0/",
    "/daily/week/2026-W54/",
    f"/daily/week/{HUGE}-W1/",
    f"/daily/week/2026-W{HUGE}/",
    "/daily/month/1-01/",
    "/daily/month/1-01/wins/",
    "/daily/month/0-01/",
    "/daily/month/10000-01/",
    "/daily/month/9999-12/",
    "/daily/month/2026-13/",
    "/daily/month/2026-0/",
    "/daily/month/+2026-1/",
    f"/daily/month/{HUGE}-1/",
    f"/daily/month/{HUGE}-1/wins/",
    f"/daily/month/2026-{HUGE}/",
    "/daily/archive/1-01/",
    "/daily/archive/0-01/",
    "/daily/archive/10000-01/",
    "/daily/archive/9999-12/",
    f"/daily/archive/{HUGE}-1/",
    "/daily/0001-01-01/",
    "/daily/9999-12-31/",
    "/daily/0001-01-01/explorer/",
    "/api/daily/0001-01-01/leaderboard/",
    "/api/daily/9999-12-31/ghost/",
    f"/events/{HUGE}/",
    f"/replay/ABCDEF/{HUGE}/",
    f"/api/replays/ABCDEF/{HUGE}/",
]


@pytest.mark.parametrize("url", EDGES)
def test_an_edge_of_a_url_is_not_found_and_logs_no_error(client, caplog, url):
    assert client.get(url).status_code == 404
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


@pytest.mark.parametrize(
    "url, how",
    [
        ("/daily/week/1-W1/wins/", "A week looks like 2026-W48."),
        (f"/daily/month/{HUGE}-1/wins/", "A month looks like 2026-11."),
        ("/daily/0001-01-01/", "A date looks like 2026-11-29."),
    ],
)
def test_the_not_found_page_says_how_a_good_one_looks(client, url, how):
    assert how in client.get(url).content.decode()


def test_the_first_and_last_months_a_url_may_name_still_answer(client):
    assert client.get("/daily/month/1900-01/wins/").status_code == 200
    assert client.get("/daily/week/9998-W52/wins/").status_code == 404  # not begun
