"""Rating board and rating profile queries at 100,000 rated accounts.

Fills a fresh PostgreSQL database (`halfmoon_ratings_bench`, dropped and migrated
first) with 100,000 accounts, 90,000 of them with a rated game (ratings spread
over 800-2400, as SQL `generate_series` inserts), and one regular player with
500 rated races in their history, then times what /ratings/, a profile and
/api/players/<name>/ ask for:

- the board's top 100 and the viewer's own line deep in it (`ratings.board`),
- a profile's rating and rated record (`ratings.rating_of`),
- its rating history, the latest 100 (`ratings.history`),
- the whole pages /ratings/ (for that deep viewer) and /players/p7/, and /api/players/p7/
  (DEBUG off, as deployed).

Each is run 30 times after a warm-up; the median and the worst are printed and,
with the EXPLAIN of the board's two queries, written to bench/results/ratings.json.
Target: under 20 ms each, with index scans. Needs PostgreSQL
(BENCH_DATABASE_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres).
"""

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import bench_database, production_settings, timed  # noqa: E402
from bench.leaderboard import TARGET_MS  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "ratings.json"
NAME = os.environ.get("BENCH_RATINGS_DATABASE", "halfmoon_ratings_bench")
"""Another name (BENCH_RATINGS_DATABASE) keeps two engineers' fills apart."""
ACCOUNTS = 100_000
REGULAR_GAMES = 500

FILL = """
INSERT INTO auth_user (username, password, is_superuser, first_name, last_name, email,
                       is_staff, is_active, date_joined)
  SELECT 'p' || n, '!', false, '', '', '', false, true, now()
  FROM generate_series(1, %(n)s) n;
INSERT INTO game_account (user_id, player_key, name_hidden, rating, deviation, volatility,
                          rated_games, signup_address, last_address)
  SELECT u.id, md5(u.username), u.id %% 500 = 0,
         800 + (hashtext(u.username) & 1023) * 1.5625, 60 + u.id %% 290, 0.06,
         CASE WHEN u.id %% 10 = 0 THEN 0 ELSE 1 + u.id %% 40 END, '', ''
  FROM auth_user u;
INSERT INTO game_deal (code, source, title, notes, created_at)
  VALUES ('HM1-N-BENCHAA', 'numbered', '', '', now());
INSERT INTO game_race (room, deal_id, mode, host_key, status, time_limit_s, event, created_at,
                       started_at, finished_at, deal_hidden, rated)
  SELECT 'r' || lpad(g::text, 7, '0'), (SELECT id FROM game_deal), 'quick', '', 'finished',
         900, 1, now() - make_interval(hours => g), now() - make_interval(hours => g),
         now() - make_interval(hours => g), true, true
  FROM generate_series(1, %(games)s) g;
INSERT INTO game_entry (race_id, player_key, user_id, name, joined_at, connected, status,
                        score, moves, cards_left, heights, seq, undos, review, ranked,
                        verification)
  SELECT r.id, md5('p7'), (SELECT id FROM auth_user WHERE username = 'p7'), 'p7', r.created_at,
         false, 'resigned', 100, 20, 84, '[]', 20, 0, 'clean', true, ''
  FROM game_race r WHERE r.room LIKE 'r%%';
INSERT INTO game_ratingchange (entry_id, race_id, user_id, at, rating_before, deviation_before,
                               volatility_before, rating_after, deviation_after,
                               volatility_after, wins, losses, draws, capped)
  SELECT e.id, e.race_id, e.user_id, e.joined_at, 1500, 100, 0.06, 1510, 99, 0.06,
         (e.id %% 2), 1 - (e.id %% 2), 0, 0
  FROM game_entry e;
"""



def board_plans(Account, RankCount, deep):
    """EXPLAIN ANALYZE of the board's top and of the parts of one's rank deep in it: the
    counts of the points above, and the accounts above on one's own point."""
    rated = Account.objects.filter(rated_games__gt=0)
    top = rated.order_by("-rating", "id")[:100].explain(analyze=True)
    point = int(deep.rating // 1)
    above = RankCount.objects.filter(board="rating", key__gt=point).explain(analyze=True)
    same = rated.filter(rating__gte=point, rating__lt=point + 1, rating__gt=deep.rating)
    return {
        name: {"plan": plan, "index_scan": index in plan}
        for name, plan, index in (
            ("board_top", top, "rating_board"),
            ("own_rank_points_above", above, "one_count_per_key"),
            ("own_rank_same_point", same.values("id").explain(analyze=True), "rating_board"),
        )
    }


def main():
    url = bench_database(NAME)
    if url is None:
        return
    production_settings()
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from game.base import rank_counts
    from game.models import Account, RankCount
    from game.players import ratings

    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(FILL, {"n": ACCOUNTS, "games": REGULAR_GAMES})
        for table in ("game_account", "game_ratingchange", "auth_user"):
            cursor.execute(f"VACUUM ANALYZE {table}")
    print(f"  {rank_counts.rebuild():,} rating points counted (rank_counts.rebuild)")
    filled_s = time.perf_counter() - start
    deep = Account.objects.filter(rated_games__gt=0).order_by("rating", "id").first()
    p7 = User.objects.get(username="p7")
    settings.ALLOWED_HOSTS = ["*"]
    # The pages are read limited as the API is: the bench reads each 31 times a minute.
    settings.HALFMOON_READ_LIMIT = settings.HALFMOON_READ_ADDRESS_LIMIT = "100000/60"
    client = Client()
    client.force_login(deep.user)
    figures = {
        "page_ratings_deep_viewer": timed(lambda: client.get("/ratings/")),
        "page_profile": timed(lambda: client.get("/players/p7/")),
        "api_player": timed(lambda: client.get("/api/players/p7/")),
        "board_top_100_and_own_line": timed(lambda: ratings.board(deep.user)),
        "rating_and_record": timed(lambda: ratings.rating_of(p7)),
        "rating_history": timed(lambda: ratings.history(p7)),
    }
    plans = board_plans(Account, RankCount, deep)
    report = {
        "accounts": Account.objects.count(),
        "rated_accounts": Account.objects.filter(rated_games__gt=0).count(),
        "regular_rated_games": REGULAR_GAMES,
        "fill_seconds": round(filled_s, 1),
        "target_ms": TARGET_MS,
        "load_average": round(os.getloadavg()[0], 1),
        "figures": figures,
        "explain": plans,
    }
    for name, figure in figures.items():
        verdict = "ok" if figure["median_ms"] < TARGET_MS else "OVER TARGET"
        median, worst = figure["median_ms"], figure["max_ms"]
        print(f"{name:28} median {median:7.2f} ms  max {worst:7.2f} ms  {verdict}")
    for name, plan in plans.items():
        print(f"{name:28} index scan: {plan['index_scan']}")
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
