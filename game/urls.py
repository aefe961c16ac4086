"""Every HTTP address of the game, each handled by one view of web/, players/ or daily/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from game.base import rooms  # noqa: F401 - registers the <room:...> converter
from game.daily import all_time, month
from game.players import accounts, profiles, ratings
from game.players.login_throttle import throttled
from game.web import api, daily_pages, health, pages, public_api

app_name = "game"

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("play/<str:code>/", pages.play, name="play"),
    path("race/<room:room>/", pages.race_page, name="race"),
    path("daily/", daily_pages.daily_today, name="daily"),
    path("daily/month/<str:month>/", month.month, name="month"),
    path("daily/all-time/", all_time.all_time, name="all-time"),
    path("daily/all-time/<str:board>/", all_time.all_time, name="all-time-board"),
    path("daily/<str:date>/", daily_pages.leaderboard, name="leaderboard"),
    path("replay/<room:room>/<int:player>/", pages.replay_page, name="replay"),
    path("api/races/", api.api_races, name="api-races"),
    path("api/races/<room:room>/", api.api_race, name="api-race"),
    path("api/races/<room:room>/restart/", api.api_restart, name="api-restart"),
    path("api/replays/<room:room>/<int:player>/", api.api_replay, name="api-replay"),
    path("api/replays/<room:room>/<int:player>/analysis/", api.api_analysis, name="api-analysis"),
    path("api/daily/", api.api_daily, name="api-daily"),
    path("api/daily/<str:date>/leaderboard/", api.api_leaderboard, name="api-leaderboard"),
    path("api/daily/<str:date>/ghost/", api.api_daily_ghost, name="api-daily-ghost"),
    path("api/quick/", api.api_quick, name="api-quick"),
    path("api/players/<str:username>/", public_api.api_player, name="api-player"),
    path("api/ratings/", public_api.api_ratings, name="api-ratings"),
    path("ratings/", ratings.rating_board, name="ratings"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", throttled(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(success_url="/accounts/password/done/"),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("me/", profiles.me, name="me"),
    path("players/<str:username>/", profiles.profile, name="profile"),
    path("healthz", health.healthz, name="healthz"),
]
