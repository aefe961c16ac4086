"""Every HTTP address of the game, each handled by one view of game/web/
(tests/test_structure.py)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from game.base import rooms  # noqa: F401 - registers the <room:...> converter
from game.base.replica import on_replica
from game.players.login_throttle import throttled
from game.players.read_limit import limited
from game.web import (
    accounts,
    api,
    app,
    archive,
    calendars,
    daily_pages,
    event_pages,
    friends,
    health,
    leagues,
    metrics,
    my_data,
    pages,
    profiles,
    public_api,
    rating_board,
    record_boards,
    reminders,
    rules,
    shares,
)

app_name = "game"


def own_profile(request, username):
    """One's own profile is read on the primary (a result just written shows)."""
    return request.user.is_authenticated and request.user.get_username() == username


urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("play/<str:code>/", pages.play, name="play"),
    path("rules/", rules.rules, name="rules"),
    path("race/<room:room>/", pages.race_page, name="race"),
    path("daily/", daily_pages.daily_today, name="daily"),
    path("daily/month/<str:month>/", on_replica(record_boards.month), name="month"),
    path(
        "daily/month/<str:month>/<str:board>/",
        on_replica(record_boards.month_board),
        name="month-board",
    ),
    path("daily/verify/", daily_pages.verification_deal, name="verification-deal"),
    path("daily/week/", on_replica(record_boards.this_week), name="week"),
    path("daily/week/<str:week>/", on_replica(record_boards.week), name="week-board-wins"),
    path("daily/week/<str:week>/<str:board>/", on_replica(record_boards.week), name="week-board"),
    path("daily/all-time/", on_replica(record_boards.all_time), name="all-time"),
    path("daily/all-time/<str:board>/", on_replica(record_boards.all_time), name="all-time-board"),
    path("daily/archive/", archive.archive_page, name="archive"),
    path("daily/archive/<str:month>/", archive.archive_page, name="archive-month"),
    path("daily/<str:date>/", on_replica(daily_pages.leaderboard), name="leaderboard"),
    path("daily/<str:date>/play/", archive.play_later, name="play-later"),
    path("daily/<str:date>/explorer/", daily_pages.explorer_page, name="explorer"),
    path("replay/<room:room>/<int:player>/", pages.replay_page, name="replay"),
    path("replay/<room:room>/<int:player>/race/", shares.replay_race, name="replay-race"),
    path("replay/<room:room>/<int:player>/play-on/", shares.replay_play_on, name="replay-play-on"),
    path("daily/<str:date>/explorer/play-on/", shares.explorer_play_on, name="explorer-play-on"),
    path("shared/<str:token>/", shares.shared_page, name="shared"),
    path("shared/<str:token>/card.svg", shares.shared_card, name="shared-card"),
    path("shared/<str:token>/race/", shares.shared_race, name="shared-race"),
    path("api/races/<room:room>/share/", shares.api_share, name="api-share"),
    path("events/", event_pages.events, name="events"),
    path("events/calendar.ics", calendars.events_calendar, name="events-calendar"),
    path("events/<int:event_id>/calendar.ics", calendars.event_calendar, name="event-calendar"),
    path("events/<int:event_id>/", event_pages.event_page, name="event"),
    path("events/<int:event_id>/play/", event_pages.event_play, name="event-play"),
    path("api/races/", api.api_races, name="api-races"),
    path("api/races/<room:room>/", api.api_race, name="api-race"),
    path("api/races/<room:room>/restart/", api.api_restart, name="api-restart"),
    path("api/replays/<room:room>/<int:player>/", api.api_replay, name="api-replay"),
    path("api/replays/<room:room>/<int:player>/analysis/", api.api_analysis, name="api-analysis"),
    path("api/daily/", api.api_daily, name="api-daily"),
    path(
        "api/daily/<str:date>/leaderboard/",
        on_replica(api.api_leaderboard),
        name="api-leaderboard",
    ),
    path("api/daily/<str:date>/ghost/", api.api_daily_ghost, name="api-daily-ghost"),
    path("api/quick/", api.api_quick, name="api-quick"),
    path("api/follows/<str:username>/", friends.api_follow, name="api-follow"),
    path("api/blocks/<str:username>/", friends.api_block, name="api-block"),
    path("api/challenges/", friends.api_challenges, name="api-challenges"),
    path("api/challenges/<int:challenge>/<str:answer>/", friends.api_answer, name="api-answer"),
    path("api/quick/ghost/", api.api_quick_ghost, name="api-quick-ghost"),
    path("api/players/<str:username>/", on_replica(public_api.api_player), name="api-player"),
    path("api/ratings/", on_replica(public_api.api_ratings), name="api-ratings"),
    path("ratings/", limited(on_replica(rating_board.rating_board)), name="ratings"),
    path("leagues/", limited(leagues.this_week), name="leagues"),
    path("leagues/<str:week>/", limited(leagues.week), name="league-week"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", throttled(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        # Named apart from Django admin's registration/password_change_*.html, which the
        # admin's app (listed first) would otherwise lend a player's page.
        auth_views.PasswordChangeView.as_view(
            template_name="registration/password_form.html",
            success_url="/accounts/password/done/",
        ),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="registration/password_changed.html"
        ),
        name="password_change_done",
    ),
    path("me/", limited(profiles.me), name="me"),
    path("me/reminders/", reminders.page, name="reminders"),
    path("api/push/", reminders.device, name="api-push"),
    path("api/push/forget/", reminders.forget, name="api-push-forget"),
    path("me/export/", my_data.export_data, name="export"),
    path("me/delete/", my_data.delete_account, name="delete-account"),
    path(
        "players/<str:username>/",
        limited(on_replica(profiles.profile, unless=own_profile)),
        name="profile",
    ),
    path("healthz", health.healthz, name="healthz"),
    path("sw.js", app.service_worker, name="sw"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("offline/play/", app.offline_play, name="offline-play"),
    path("offline/", app.offline_page, name="offline"),
    path("offline/rules/", app.offline_rules, name="offline-rules"),
    path("metrics", metrics.metrics, name="metrics"),
]
