"""Ranked leaderboard and profile queries on a day of 100,000 results.

Fills a fresh PostgreSQL database (`halfmoon_board_bench`, dropped and migrated
first) with one daily deal played by 100,000 accounts (a mix of wins, flagged
wins, guests and losses, as SQL `generate_series` inserts) plus a year of daily
games for one regular player, then times what a page asks for:

- the first page of the ranked board (`day_board.page_of`),
- a player's own rank deep in the board (`day_board.rank_of`),
- a page far down the board (page 1000),
- a profile: its numbers (`profiles.stats`) and its history (`profiles.history`),
- the all-time boards' first page with a player's own row (`record_boards.all_time_page`).

Each is run 30 times after a warm-up; the median and the worst are printed and,
with each query's EXPLAIN, written to bench/results/leaderboard.json. Target:
under 20 ms each, with index scans. Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL,
default postgres://postgres@127.0.0.1:5432/postgres).
"""

import datetime
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import bench_database, timed  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "leaderboard.json"
NAME = "halfmoon_board_bench"
RESULTS_PER_DAY = 100_000
DAY = datetime.date(2026, 11, 30)
TARGET_MS = 20


FILL = """
INSERT INTO game_deal (code, source, title, notes, created_at)
  VALUES ('HM1-N-BENCHAA', 'numbered', '', '', now());
INSERT INTO game_dailydeal (date, deal_id, created_at)
  SELECT %(day)s, id, now() FROM game_deal WHERE code = 'HM1-N-BENCHAA';
INSERT INTO auth_user (username, password, is_superuser, first_name, last_name, email,
                       is_staff, is_active, date_joined)
  SELECT 'p' || n, '!', false, '', '', '', false, true, now()
  FROM generate_series(1, %(n)s) n;
INSERT INTO game_race (room, deal_id, mode, daily_date, host_key, status, time_limit_s,
                       event, created_at, started_at, finished_at, deal_hidden)
  SELECT lpad(to_hex(n), 8, '0'), (SELECT id FROM game_deal WHERE code = 'HM1-N-BENCHAA'),
         'daily', %(day)s, md5(n::text), 'finished', 900, 1,
         %(day)s + make_interval(secs => n * 0.8), %(day)s + make_interval(secs => n * 0.8),
         %(day)s + make_interval(secs => n * 0.8 + 60 + n %% 600), false
  FROM generate_series(1, %(n)s) n;
INSERT INTO game_entry (race_id, player_key, user_id, name, daily_date, joined_at, connected,
                        status, score, moves, cards_left, heights, seq, last_move_at,
                        finished_at, undos, time_ms, review, ranked)
  SELECT r.id, r.host_key, u.id, u.username, %(day)s, r.created_at, false,
         CASE WHEN n %% 3 = 0 THEN 'resigned' ELSE 'won' END,
         CASE WHEN n %% 3 = 0 THEN 8 * (n %% 60) ELSE 520 END,
         48 + n %% 20, CASE WHEN n %% 3 = 0 THEN 104 - 2 * (n %% 50) ELSE 0 END, '[]', 50,
         r.finished_at, r.finished_at, n %% 4, (60 + n %% 600) * 1000,
         CASE WHEN n %% 97 = 0 THEN 'flagged' ELSE 'clean' END,
         n %% 97 <> 0 AND n %% 11 <> 0
  FROM generate_series(1, %(n)s) n
  JOIN game_race r ON r.room = lpad(to_hex(n), 8, '0')
  JOIN auth_user u ON u.username = 'p' || n;
UPDATE game_entry SET user_id = NULL, ranked = false WHERE id %% 11 = 0;
"""

YEAR = """
INSERT INTO game_race (room, deal_id, mode, daily_date, host_key, status, time_limit_s,
                       event, created_at, started_at, finished_at, deal_hidden)
  SELECT 'y' || lpad(d::text, 7, '0'), (SELECT id FROM game_deal WHERE code = 'HM1-N-BENCHAA'),
         'daily', %(day)s - d, md5('regular'), 'finished', 900, 1,
         %(day)s - d, %(day)s - d, %(day)s - d + interval '3 minutes', false
  FROM generate_series(1, 365) d;
INSERT INTO game_entry (race_id, player_key, user_id, name, daily_date, joined_at, connected,
                        status, score, moves, cards_left, heights, seq, finished_at, undos,
                        time_ms, review, ranked)
  SELECT r.id, md5('regular'), (SELECT id FROM auth_user WHERE username = 'p7'), 'p7',
         r.daily_date, r.created_at, false, 'won', 520, 50, 0, '[]', 50, r.finished_at, 0,
         180000, 'clean', true
  FROM game_race r WHERE r.room LIKE 'y%%';
"""


def explain(queryset):
    plan = queryset.explain(analyze=True)
    return {"plan": plan, "index_scan": "Index" in plan and "Seq Scan on game_entry" not in plan}


def main():
    url = bench_database(NAME)
    if url is None:
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "halfmoon_site.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection

    from game.daily import day_board, record_boards
    from game.models import Entry
    from game.players import profiles

    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(FILL, {"day": DAY, "n": RESULTS_PER_DAY})
        cursor.execute(YEAR, {"day": DAY})
        cursor.execute("VACUUM ANALYZE game_entry")  # what autovacuum does after a fill
    filled_s = time.perf_counter() - start
    deep = Entry.objects.filter(daily_date=DAY, ranked=True, status="won").order_by("-time_ms")[0]
    p7 = User.objects.get(username="p7")
    regular = Entry.objects.filter(user=p7)
    figures = {
        "ranked_first_page": timed(lambda: day_board.page_of(DAY, 1)),
        "ranked_page_1000": timed(lambda: day_board.page_of(DAY, 1000)),
        "own_rank_deep": timed(lambda: day_board.rank_of(deep)),
        "profile_stats": timed(lambda: profiles.stats(regular)),
        "profile_history": timed(lambda: profiles.history(regular)),
        **{
            f"all_time_{board}": timed(
                lambda board=board: record_boards.all_time_page(board, 1, p7.pk)
            )
            for board in record_boards.BOARDS
        },
    }
    wins = day_board.ranked_wins(DAY).order_by(*day_board.order_by(day_board.WIN_ORDER))
    plans = {
        "ranked_first_page": explain(wins[:51]),
        "own_rank_deep": explain(
            day_board.ranked_wins(DAY)
            .filter(day_board._ahead(deep, day_board.WIN_ORDER)[0])
            .values("id")
        ),
        "profile_history": explain(
            regular.filter(status__in=Entry.DONE).order_by("-joined_at")[: profiles.HISTORY]
        ),
    }
    report = {
        "results_in_the_day": Entry.objects.filter(daily_date=DAY).count(),
        "ranked_results": Entry.objects.filter(daily_date=DAY, ranked=True).count(),
        "fill_seconds": round(filled_s, 1),
        "target_ms": TARGET_MS,
        "figures": figures,
        "explain": plans,
    }
    for name, figure in figures.items():
        verdict = "ok" if figure["median_ms"] < TARGET_MS else "OVER TARGET"
        median, worst = figure["median_ms"], figure["max_ms"]
        print(f"{name:20} median {median:7.2f} ms  max {worst:7.2f} ms  {verdict}")
    for name, plan in plans.items():
        print(f"{name:20} index scan: {plan['index_scan']}")
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
