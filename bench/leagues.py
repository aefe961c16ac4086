"""A league group's page at 100,000 accounts, beside the rating board in the same run.

Fills a fresh PostgreSQL database (`halfmoon_leagues_bench`, dropped and migrated
first) with bench/ratings.py's 100,000 accounts and rated games, then puts every
account into this week's leagues (five tiers, groups of 30: 3,334 groups, points
spread over 0-59), and times, 30 times each after a warm-up:

- /leagues/ for p7 (its group of 30, the lines that move them),
- /api/players/p7/ (its league fields included) and /players/p7/,
- /ratings/ for a viewer deep in the board — the existing board, as a yardstick,
- `members.note` for p7: the points recomputed as a finished game does.

Target: under 20 ms each (bench/leaderboard.py's TARGET_MS); the figures are written
to bench/results/leagues.json.
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
from bench.ratings import ACCOUNTS, FILL, REGULAR_GAMES  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "leagues.json"
NAME = os.environ.get("BENCH_LEAGUES_DATABASE", "halfmoon_leagues_bench")

LEAGUES = """
INSERT INTO game_leaguemember (user_id, week, tier, "group", points, scored_at, outcome)
  SELECT id, %(week)s, tier, (row_number() OVER (PARTITION BY tier ORDER BY id) - 1) / 30 + 1,
         (hashtext(username) & 1023) %% 60, now(), ''
  FROM (SELECT id, username, id %% 5 AS tier FROM auth_user) u;
"""


def fill(connection, week):
    with connection.cursor() as cursor:
        cursor.execute(FILL, {"n": ACCOUNTS, "games": REGULAR_GAMES})
        cursor.execute(LEAGUES, {"week": week})
        for table in ("game_account", "game_ratingchange", "auth_user", "game_leaguemember"):
            cursor.execute(f"VACUUM ANALYZE {table}")


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
    from django.utils import timezone

    from game.base import days, rank_counts
    from game.leagues import members, rules
    from game.models import Account, LeagueMember

    start = time.perf_counter()
    fill(connection, rules.week_start(days.today()))
    rank_counts.rebuild()
    filled_s = time.perf_counter() - start
    settings.ALLOWED_HOSTS = ["*"]
    settings.HALFMOON_READ_LIMIT = settings.HALFMOON_READ_ADDRESS_LIMIT = "100000/60"
    p7 = User.objects.get(username="p7")
    deep = Account.objects.filter(rated_games__gt=0).order_by("rating", "id").first()
    member, viewer = Client(), Client()
    member.force_login(p7)
    viewer.force_login(deep.user)
    figures = {
        "page_league_group": timed(lambda: member.get("/leagues/")),
        "page_ratings_deep_viewer": timed(lambda: viewer.get("/ratings/")),
        "page_profile": timed(lambda: member.get("/players/p7/")),
        "api_player": timed(lambda: member.get("/api/players/p7/")),
        "points_recomputed": timed(lambda: members.note([p7.pk], timezone.now())),
    }
    report = {
        "accounts": Account.objects.count(),
        "league_members": LeagueMember.objects.count(),
        "fill_seconds": round(filled_s, 1),
        "target_ms": TARGET_MS,
        "load_average": round(os.getloadavg()[0], 1),
        "figures": figures,
    }
    for name, figure in figures.items():
        verdict = "ok" if figure["median_ms"] < TARGET_MS else "OVER TARGET"
        median, worst = figure["median_ms"], figure["max_ms"]
        print(f"{name:28} median {median:7.2f} ms  max {worst:7.2f} ms  {verdict}")
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
