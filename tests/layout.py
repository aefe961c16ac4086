"""
Where a test file goes: tests mirror the source, so a module's tests are found by its path.

A test file `test_*.py` sits in `tests/<package>/`, named for the package of `game/` it tests
(engine, race, realtime, daily, events, players, web, …), or in `tests/deploy/` when it tests
the site around the game (halfmoon_site/, deploy/, the Dockerfile, `make run`); the few that
check the whole project stay at the top (PROJECT_WIDE). Tiers are markers, not folders: a
browser test says `pytestmark = pytest.mark.e2e`, a test on real server processes
`multiprocess`. Shared fixtures and helpers live in tests/support/ (no test files).
tests/test_structure.py holds every test file to this rule.

MOVED is the move that laid the tests out this way (issue #32): `python tests/layout.py`
prints the `git mv` for every old path still present (a branch's new file in an old folder
is not in it: put it by the rule and `misplaced()` is empty again).
"""

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
GAME = TESTS.parent / "game"
PROJECT_WIDE = {"test_docs.py", "test_lock.py", "test_project.py", "test_structure.py"}
SITE = "deploy"
"""The folder of halfmoon_site's tests: a folder named `site` or `halfmoon_site` would hide
Python's `site` module or the project package itself (pytest puts tests/ on sys.path)."""


def packages():
    """The folders a test file may sit in: game's packages and the site's."""
    return {path.parent.name for path in GAME.glob("*/__init__.py")} | {SITE}


def misplaced():
    """Test files (from tests/) that sit in no package's folder."""
    homes = packages()
    wrong = []
    for path in sorted(TESTS.rglob("test_*.py")):
        relative = path.relative_to(TESTS)
        if len(relative.parts) == 1 and relative.name in PROJECT_WIDE:
            continue
        if len(relative.parts) != 2 or relative.parts[0] not in homes:
            wrong.append(str(relative))
    return wrong


MOVED = {
    "tests/e2e/test_accessibility.py": "tests/web/test_accessibility.py",
    "tests/e2e/test_admin_calendar.py": "tests/staff/test_admin_calendar_browser.py",
    "tests/e2e/test_admin_staff.py": "tests/staff/test_admin_staff.py",
    "tests/e2e/test_analysis.py": "tests/replays/test_analysis.py",
    "tests/e2e/test_arc.py": "tests/web/test_arc.py",
    "tests/e2e/test_away.py": "tests/realtime/test_away.py",
    "tests/e2e/test_delete_account.py": "tests/players/test_delete_account.py",
    "tests/e2e/test_delight.py": "tests/web/test_delight.py",
    "tests/e2e/test_events.py": "tests/events/test_events_browser.py",
    "tests/e2e/test_finished_screens.py": "tests/race/test_finished_screens.py",
    "tests/e2e/test_friends.py": "tests/friends/test_friends_browser.py",
    "tests/e2e/test_game.py": "tests/web/test_game.py",
    "tests/e2e/test_ghost.py": "tests/daily/test_ghost.py",
    "tests/e2e/test_give_up_and_restart.py": "tests/race/test_give_up_and_restart.py",
    "tests/e2e/test_offline_shell.py": "tests/web/test_offline_shell.py",
    "tests/e2e/test_pages.py": "tests/web/test_pages_browser.py",
    "tests/e2e/test_profile.py": "tests/players/test_profile.py",
    "tests/e2e/test_quick_alone.py": "tests/lobby/test_quick_alone_browser.py",
    "tests/e2e/test_quick_race.py": "tests/lobby/test_quick_race.py",
    "tests/e2e/test_race.py": "tests/race/test_race.py",
    "tests/e2e/test_race_end.py": "tests/race/test_race_end.py",
    "tests/e2e/test_ranked_daily.py": "tests/daily/test_ranked_daily.py",
    "tests/e2e/test_rated_race.py": "tests/ratings/test_rated_race.py",
    "tests/e2e/test_replay.py": "tests/replays/test_replay.py",
    "tests/e2e/test_rule_cases.py": "tests/engine/test_rule_cases_browser.py",
    "tests/e2e/test_rules.py": "tests/web/test_rules.py",
    "tests/e2e/test_screens.py": "tests/web/test_screens.py",
    "tests/e2e/test_settings.py": "tests/web/test_settings.py",
    "tests/e2e/test_taps.py": "tests/web/test_taps.py",
    "tests/e2e/test_texts.py": "tests/web/test_texts.py",
    "tests/e2e/test_time_limits.py": "tests/race/test_time_limits_browser.py",
    "tests/e2e/test_verified.py": "tests/race/test_verified_browser.py",
    "tests/server/test_action_errors.py": "tests/race/test_action_errors.py",
    "tests/server/test_admin.py": "tests/staff/test_admin.py",
    "tests/server/test_admin_calendar.py": "tests/staff/test_admin_calendar.py",
    "tests/server/test_admin_events.py": "tests/staff/test_admin_events.py",
    "tests/server/test_admission.py": "tests/realtime/test_admission.py",
    "tests/server/test_analyse_deals.py": "tests/solver/test_analyse_deals.py",
    "tests/server/test_api_races.py": "tests/web/test_api_races.py",
    "tests/server/test_app.py": "tests/web/test_app.py",
    "tests/server/test_arrival.py": "tests/race/test_arrival.py",
    "tests/server/test_attendance.py": "tests/race/test_attendance.py",
    "tests/server/test_backup_restore.py": "tests/deploy/test_backup_restore.py",
    "tests/server/test_bad_input.py": "tests/web/test_bad_input.py",
    "tests/server/test_board_sql.py": "tests/daily/test_board_sql.py",
    "tests/server/test_crash.py": "tests/race/test_crash.py",
    "tests/server/test_daily.py": "tests/daily/test_daily.py",
    "tests/server/test_door.py": "tests/realtime/test_door.py",
    "tests/server/test_eager_writes.py": "tests/deploy/test_eager_writes.py",
    "tests/server/test_edge_urls.py": "tests/web/test_edge_urls.py",
    "tests/server/test_entrance.py": "tests/players/test_entrance.py",
    "tests/server/test_error_pages.py": "tests/web/test_error_pages.py",
    "tests/server/test_errors.py": "tests/web/test_errors.py",
    "tests/server/test_event_processes.py": "tests/events/test_event_processes.py",
    "tests/server/test_event_ratings.py": "tests/ratings/test_event_ratings.py",
    "tests/server/test_event_secrecy.py": "tests/events/test_event_secrecy.py",
    "tests/server/test_events.py": "tests/events/test_events.py",
    "tests/server/test_events_trust.py": "tests/events/test_events_trust.py",
    "tests/server/test_explorer.py": "tests/daily/test_explorer.py",
    "tests/server/test_fair_admission.py": "tests/realtime/test_fair_admission.py",
    "tests/server/test_fair_play.py": "tests/race/test_fair_play.py",
    "tests/server/test_friends.py": "tests/friends/test_friends.py",
    "tests/server/test_fuzz.py": "tests/race/test_fuzz.py",
    "tests/server/test_fuzz_http.py": "tests/web/test_fuzz_http.py",
    "tests/server/test_ghosts.py": "tests/daily/test_ghosts.py",
    "tests/server/test_guards.py": "tests/web/test_guards.py",
    "tests/server/test_head.py": "tests/web/test_head.py",
    "tests/server/test_head_to_head.py": "tests/friends/test_head_to_head.py",
    "tests/server/test_health.py": "tests/web/test_health.py",
    "tests/server/test_launcher.py": "tests/testing/test_launcher.py",
    "tests/server/test_limits.py": "tests/base/test_limits.py",
    "tests/server/test_limits_across_processes.py": "tests/base/test_limits_across_processes.py",
    "tests/server/test_links.py": "tests/base/test_links.py",
    "tests/server/test_login_names.py": "tests/players/test_login_names.py",
    "tests/server/test_make_run.py": "tests/deploy/test_make_run.py",
    "tests/server/test_metrics.py": "tests/web/test_metrics.py",
    "tests/server/test_migrations_upgrade.py": "tests/migrations/test_migrations_upgrade.py",
    "tests/server/test_moderation.py": "tests/staff/test_moderation.py",
    "tests/server/test_moves.py": "tests/race/test_moves.py",
    "tests/server/test_multiprocess.py": "tests/realtime/test_multiprocess.py",
    "tests/server/test_my_data.py": "tests/players/test_my_data.py",
    "tests/server/test_nginx.py": "tests/deploy/test_nginx.py",
    "tests/server/test_nginx_failover.py": "tests/deploy/test_nginx_failover.py",
    "tests/server/test_outages.py": "tests/base/test_outages.py",
    "tests/server/test_packed_moves.py": "tests/race/test_packed_moves.py",
    "tests/server/test_pages.py": "tests/web/test_pages.py",
    "tests/server/test_patched_internals.py": "tests/deploy/test_patched_internals.py",
    "tests/server/test_play_http.py": "tests/web/test_play_http.py",
    "tests/server/test_play_through_faults.py": "tests/realtime/test_play_through_faults.py",
    "tests/server/test_postgame.py": "tests/race/test_postgame.py",
    "tests/server/test_presence_live.py": "tests/realtime/test_presence_live.py",
    "tests/server/test_protocol_edges.py": "tests/realtime/test_protocol_edges.py",
    "tests/server/test_quick_alone.py": "tests/lobby/test_quick_alone.py",
    "tests/server/test_quick_concurrency.py": "tests/lobby/test_quick_concurrency.py",
    "tests/server/test_quick_no_shows.py": "tests/lobby/test_quick_no_shows.py",
    "tests/server/test_quickrace.py": "tests/lobby/test_quickrace.py",
    "tests/server/test_race_protocol.py": "tests/realtime/test_race_protocol.py",
    "tests/server/test_races.py": "tests/race/test_races.py",
    "tests/server/test_rank_counts.py": "tests/base/test_rank_counts.py",
    "tests/server/test_rated_race_live.py": "tests/ratings/test_rated_race_live.py",
    "tests/server/test_rating_farms.py": "tests/ratings/test_rating_farms.py",
    "tests/server/test_ratings.py": "tests/ratings/test_ratings.py",
    "tests/server/test_replays.py": "tests/replays/test_replays.py",
    "tests/server/test_restart.py": "tests/race/test_restart.py",
    "tests/server/test_retention.py": "tests/staff/test_retention.py",
    "tests/server/test_rolling_restart.py": "tests/deploy/test_rolling_restart.py",
    "tests/server/test_rules_page.py": "tests/web/test_rules_page.py",
    "tests/server/test_sessions.py": "tests/players/test_sessions.py",
    "tests/server/test_socket_leases.py": "tests/realtime/test_socket_leases.py",
    "tests/server/test_solver_tether.py": "tests/solver/test_solver_tether.py",
    "tests/server/test_splits.py": "tests/race/test_splits.py",
    "tests/server/test_stale_connections.py": "tests/base/test_stale_connections.py",
    "tests/server/test_static_files.py": "tests/deploy/test_static_files.py",
    "tests/server/test_time_limits.py": "tests/race/test_time_limits.py",
    "tests/server/test_unknown_sockets.py": "tests/realtime/test_unknown_sockets.py",
    "tests/server/test_verified.py": "tests/race/test_verified.py",
    "tests/engine/test_event_points.py": "tests/events/test_event_points.py",
    "tests/engine/test_farming.py": "tests/ratings/test_farming.py",
    "tests/engine/test_glicko2.py": "tests/ratings/test_glicko2.py",
    "tests/engine/test_solver.py": "tests/solver/test_solver.py",
    "tests/e2e/conftest.py": "tests/support/e2e.py",
    "tests/e2e/table.py": "tests/support/table.py",
    "tests/server/conftest.py": "tests/support/server.py",
    "tests/server/faults.py": "tests/support/faults.py",
    "tests/engine/conftest.py": "tests/support/engine.py",
    "tests/engine/layouts.py": "tests/support/layouts.py",
    "tests/server/test_leagues.py": "tests/leagues/test_leagues.py",
    "tests/e2e/test_leagues.py": "tests/leagues/test_leagues_browser.py",
    "tests/server/test_reminders.py": "tests/reminders/test_reminders.py",
    "tests/e2e/test_reminders.py": "tests/reminders/test_reminders_browser.py",
    "tests/server/test_shared_runs.py": "tests/runs/test_shared_runs.py",
    "tests/e2e/test_share.py": "tests/runs/test_share.py",
    "tests/server/test_archive.py": "tests/daily/test_archive.py",
    "tests/e2e/test_archive.py": "tests/daily/test_archive_browser.py",
    "tests/server/test_streaks.py": "tests/habits/test_streaks.py",
    "tests/e2e/test_spectate.py": "tests/web/test_spectate.py",
    "tests/e2e/test_layout.py": "tests/web/test_layout.py",
    "tests/server/test_rush.py": "tests/realtime/test_rush.py",
    "tests/server/test_page_turns.py": "tests/web/test_page_turns.py",
    "tests/server/test_replica.py": "tests/base/test_replica.py",
    "tests/server/replica.py": "tests/support/replica.py",
    "tests/server/test_sharded_channel_layer.py": "tests/realtime/test_sharded_channel_layer.py",
    "tests/server/test_schema.py": "tests/race/test_schema.py",
    "tests/server/test_screens_findings.py": "tests/web/test_screens_findings.py",
    "tests/server/test_template_tags.py": "tests/templatetags/test_template_tags.py",
}
"""Old path -> new path of the layout's own move, from the repository's root."""


if __name__ == "__main__":
    root = TESTS.parent
    for old, new in MOVED.items():
        if (root / old).exists():
            print(f"git mv {old} {new}")
    for path in misplaced():
        print(f"# misplaced: tests/{path}", file=sys.stderr)
