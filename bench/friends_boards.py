"""The Friends, week, month and all-time boards, and the challenge poll, at 100,000
accounts and 1,000,000 daily results.

Fills a fresh PostgreSQL database (`hm_friends_bench`, dropped and migrated first)
with COPY: 100,000 accounts, 60 days of daily deals with 16,667 results each (two in
three won, nine in ten of those ranked), every account's records as judging keeps
them (game/results/records.py's own `summary`), 10 follows for one account in ten and
`follows.MAX_FOLLOWING` (500) for the viewer, then times what each page asks for,
30 runs after a warm-up, medians and worsts printed and written to
bench/results/friends_boards.json:

- the day's ranked board and its Friends view (`day_board.friends_board`),
- the all-time boards (wins, streaks, times), the week's and the month's (wins,
  times), each for everyone (with the viewer's own row deep down) and for friends,
- every board's whole page, for everyone and for friends, through Django's test client
  (middleware, session, template; DEBUG off, as deployed: `_services.production_settings`),
- the viewer's own profile, with its lists of the 500 it follows and of its followers,
- the challenge poll, `GET /api/challenges/` (what every open lobby asks every 3 s).

Target: under 20 ms each. Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL). The fill takes
minutes: `--reuse` times again on the database a previous run filled.
"""

import datetime
import json
import os
import random
import sys
import time
from pathlib import Path

from _services import ROOT, database_url, fresh_database, production_settings, timed

RESULTS = Path(__file__).parent / "results" / "friends_boards.json"
NAME = os.environ.get("BENCH_FRIENDS_DATABASE", "hm_friends_bench")
"""Another name (BENCH_FRIENDS_DATABASE) keeps two engineers' fills apart."""
ACCOUNTS, DAYS, PER_DAY = 100_000, 60, 16_667
LAST_DAY = datetime.date(2026, 11, 30)
TARGET_MS = 20
VIEWER = 4242
"""The account whose pages are timed (a mid-board one) and who follows 500."""
OTHER_PAGES = {
    "page_own_profile_following_500": f"/players/p{VIEWER}/",
    "challenge_poll": "/api/challenges/",
}
"""Pages timed beside the boards: the viewer's own profile, and what an open lobby asks."""


def progress(what, done, total):
    print(f"\r  {what}: {done:,}/{total:,}", end="\n" if done >= total else "", flush=True)


def copy_rows(conn, table, rows, total):
    """COPY `rows` into `table` (its `COLUMNS`), with a progress line every 50,000."""
    columns = COLUMNS[table].split()
    with (
        conn.cursor() as cursor,
        cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy,
    ):
        for count, row in enumerate(rows, start=1):
            copy.write_row(row)
            if count % 50_000 == 0 or count == total:
                progress(table, count, total)


def results(rng):
    """(n, day, user id, won, ranked, time_ms) of every daily result, day by day."""
    n = 0
    for back in range(DAYS):
        day = LAST_DAY - datetime.timedelta(days=back)
        for user in rng.sample(range(1, ACCOUNTS + 1), PER_DAY):
            n += 1
            won = rng.random() < 2 / 3
            yield n, day, user, won, won and rng.random() < 0.9, rng.randint(60, 660) * 1000


COLUMNS = {
    "auth_user": "id username password is_superuser first_name last_name email is_staff "
    "is_active date_joined",
    "game_account": "user_id player_key name_hidden rating deviation volatility rated_games"
    " signup_address last_address",
    "game_deal": "id code source title notes created_at",
    "game_dailydeal": "date deal_id created_at",
    "game_race": "id room deal_id mode daily_date host_key status time_limit_s event "
    "created_at started_at finished_at deal_hidden rated",
    "game_entry": "race_id player_key user_id name daily_date joined_at connected status score "
    "moves cards_left heights seq finished_at undos time_ms review ranked verification",
    "game_record": "user_id period start wins last_won best_ms best_on streak streak_on",
    "game_follow": "follower_id followed_id at",
}
NOW = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)


def key(user):
    return f"{user:032x}"


def noon(day):
    return datetime.datetime.combine(day, datetime.time(12), datetime.UTC)


def accounts_and_days(conn):
    users = range(1, ACCOUNTS + 1)
    user_rows = ((u, f"p{u}", "!", False, "", "", "", False, True, NOW) for u in users)
    copy_rows(conn, "auth_user", user_rows, ACCOUNTS)
    copy_rows(
        conn,
        "game_account",
        ((u, key(u), False, 1500, 350, 0.06, 0, "", "") for u in users),
        ACCOUNTS,
    )
    deals = (
        (d, f"HM1-N-BENCH{chr(65 + d // 26)}{chr(65 + d % 26)}", "numbered", "", "", NOW)
        for d in range(1, DAYS + 1)
    )
    copy_rows(conn, "game_deal", deals, DAYS)
    days = {LAST_DAY - datetime.timedelta(days=d - 1): d for d in range(1, DAYS + 1)}
    copy_rows(conn, "game_dailydeal", ((day, d, NOW) for day, d in days.items()), DAYS)
    return days


def races_and_entries(conn, played, days):
    races = (
        (n, f"{n:08x}", days[day], "daily", day, key(u), "finished", 900, 1)
        + (noon(day), noon(day), noon(day), False, False)
        for n, day, u, *_ in played
    )
    copy_rows(conn, "game_race", races, len(played))
    entries = (
        (n, key(u), u, f"p{u}", day, noon(day), False, "won" if won else "resigned")
        + (520 if won else 8 * (n % 60), 50, 0 if won else 60, "[]", 50, noon(day), n % 4)
        + (ms if won else None, "clean", ranked, "")
        for n, day, u, won, ranked, ms in played
    )
    copy_rows(conn, "game_entry", entries, len(played))


def record_rows(played):
    """Every account's records, as game/results/records.py computes them when judging."""
    from game.results import records

    wins = {}
    for _, day, u, won, ranked, ms in sorted(played, key=lambda r: r[1]):
        if won and ranked:
            wins.setdefault(u, []).append((day, ms))
    rows = []
    for u, found in wins.items():
        for period, begin in {pair for day, _ in found for pair in records.periods_of(day)}:
            figures = records.summary([w for w in found if records.inside(period, begin, w[0])])
            rows.append((u, period, begin, *figures.values()))
    return rows


def follow_rows(rng):
    """Ten follows for every tenth account; the most one may for the viewer."""
    from game.friends.follows import MAX_FOLLOWING

    rows = []
    for u in range(1, ACCOUNTS + 1, 10):
        rows += [(u, f, NOW) for f in rng.sample(range(1, ACCOUNTS + 1), 10) if f != u]
    rows = [row for row in rows if row[0] != VIEWER]
    others = [f for f in range(1, ACCOUNTS + 1) if f != VIEWER]
    return rows + [(VIEWER, f, NOW) for f in rng.sample(others, MAX_FOLLOWING)]


def fill(url):
    """Every row of the bench, by COPY; returns the seconds it took."""
    import psycopg

    rng, start = random.Random(18), time.perf_counter()
    played = list(results(rng))
    with psycopg.connect(url) as conn:
        days = accounts_and_days(conn)
        races_and_entries(conn, played, days)
        records = record_rows(played)
        copy_rows(conn, "game_record", records, len(records))
        follows = follow_rows(rng)
        copy_rows(conn, "game_follow", follows, len(follows))
        conn.execute("SELECT setval(pg_get_serial_sequence('auth_user', 'id'), %s)", [ACCOUNTS])
        conn.commit()
        conn.autocommit = True
        for table in ("auth_user", "game_entry", "game_race", "game_record", "game_follow"):
            conn.execute(f"VACUUM ANALYZE {table}")  # what autovacuum does after a fill
    return time.perf_counter() - start


def figures():
    """Each board's query and page, and the poll, timed."""
    from django.contrib.auth.models import User
    from django.test import Client

    from game.daily import day_board, record_boards
    from game.friends import follows
    from game.models import ALL_TIME_START, DailyDeal, Record
    from game.results.records import week_start

    viewer = User.objects.get(pk=VIEWER)
    circle = follows.circle(viewer)
    day = DailyDeal.objects.get(date=LAST_DAY)
    key = viewer.account.player_key
    week, month = week_start(LAST_DAY), LAST_DAY.replace(day=1)
    client = Client()
    client.force_login(viewer)
    found = {
        "daily_first_page": lambda: day_board.daily_board(day, key),
        "daily_friends": lambda: day_board.friends_board(day, circle, key),
    }
    for period, begin, names in (
        (Record.ALL, ALL_TIME_START, ("wins", "streaks", "times")),
        (Record.WEEK, week, record_boards.PERIOD_BOARDS),
        (Record.MONTH, month, record_boards.PERIOD_BOARDS),
    ):
        for board in names:
            found[f"{period}_{board}"] = lambda p=period, b=begin, n=board: (
                record_boards.records_page(p, b, n, 1, VIEWER)
            )
            found[f"{period}_{board}_friends"] = lambda p=period, b=begin, n=board: (
                record_boards.records_page(p, b, n, 1, VIEWER, follows.circle(viewer))
            )
    iso_week = record_boards.week_name(week)
    for name, url in {**pages(iso_week), **OTHER_PAGES}.items():
        found[name] = lambda url=url: client.get(url)
    return {name: timed(function) for name, function in found.items()}


def pages(iso_week):
    """Every board's page, for everyone and for friends, by the name its figure has."""
    month = f"{LAST_DAY:%Y-%m}"
    return {
        "page_daily": f"/daily/{LAST_DAY}/",
        "page_daily_friends": f"/daily/{LAST_DAY}/?view=friends",
        "page_all_time_wins": "/daily/all-time/",
        "page_all_time_friends": "/daily/all-time/?view=friends",
        "page_all_time_streaks": "/daily/all-time/streaks/",
        "page_week_wins": f"/daily/week/{iso_week}/",
        "page_week_times_friends": f"/daily/week/{iso_week}/times/?view=friends",
        "page_month_wins": f"/daily/month/{month}/wins/",
        "page_month_times_friends": f"/daily/month/{month}/times/?view=friends",
    }


def plans():
    """EXPLAIN ANALYZE of the all-time wins board's statements as the page runs them
    (game/daily/record_boards.py): PostgreSQL's own time, and whether it read an index."""
    import re

    from django.db import connection

    from game.daily import record_boards
    from game.friends import follows
    from game.models import ALL_TIME_START, RankCount, Record

    viewer = Record.objects.get(user_id=VIEWER, period=Record.ALL)
    sql = record_boards._statements("wins")
    among, among_params = follows.as_sql(follows.circle(viewer.user))
    (name, key), *_ = viewer.counted_on()
    keys_ahead = RankCount.objects.filter(board=name, key__gt=key).query.sql_with_params()
    statements = {
        "all_wins_page": (sql["page"], [Record.ALL, ALL_TIME_START, 51, 0]),
        "all_wins_own_rank_keys_ahead": keys_ahead,
        "all_wins_own_rank_same_key": record_boards._tied_ahead(viewer, "wins"),
        "all_wins_friends_page": (
            sql["friends"].replace("{among}", among),
            [Record.ALL, ALL_TIME_START, *among_params, 0, 51, VIEWER],
        ),
    }
    found = {}
    with connection.cursor() as cursor:
        for name, (statement, params) in statements.items():
            cursor.execute(f"EXPLAIN ANALYZE {statement}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            ms = float(re.search(r"Execution Time: ([\d.]+) ms", plan).group(1))
            found[name] = {"execution_ms": ms, "index": "Seq Scan on game_record" not in plan}
    return found


def main():
    reuse = "--reuse" in sys.argv
    try:
        url = database_url(NAME) if reuse else fresh_database(NAME)
    except Exception as exc:  # noqa: BLE001 - a bench without PostgreSQL says so and stops
        print(f"SKIPPED: no PostgreSQL: {exc}")
        return
    os.environ["DATABASE_URL"] = url
    production_settings()
    os.environ["HALFMOON_POLL_LIMIT"] = "100000/60"  # the bench polls faster than a page
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    # The pages are read limited as the API is: the bench reads each 31 times a minute.
    settings.HALFMOON_READ_LIMIT = settings.HALFMOON_READ_ADDRESS_LIMIT = "100000/60"
    filled = None if reuse else round(fill(url))
    print(f"filled in {filled} s" if filled else f"reusing {NAME} (--reuse)")
    if filled:
        from game.models import rank_counts

        print("  counting the boards' keys (rank_counts.rebuild) ...", flush=True)
        print(f"  {rank_counts.rebuild():,} keys counted")
    timings, load = figures(), os.getloadavg()
    for name, figure in timings.items():
        verdict = "ok" if figure["median_ms"] < TARGET_MS else "OVER TARGET"
        median, worst = figure["median_ms"], figure["max_ms"]
        target = f"target {TARGET_MS} ms"
        print(f"{name:28} median {median:7.2f} ms  max {worst:7.2f} ms  {target}: {verdict}")
    explained = plans()
    for name, plan in explained.items():
        print(f"{name:28} PostgreSQL {plan['execution_ms']:7.2f} ms  index: {plan['index']}")
    print(f"load average while timing: {load[0]:.1f} (2 cores)")
    report = {"accounts": ACCOUNTS, "results": DAYS * PER_DAY, "fill_seconds": filled}
    report |= {"target_ms": TARGET_MS, "load_average": round(load[0], 1)}
    report |= {"figures": timings, "explain": explained}
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
