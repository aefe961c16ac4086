from django.contrib.auth import views as auth_views
from django.urls import path

from . import accounts, health, month, profiles, records, rooms, views  # noqa: F401 - rooms registers <room:...>

app_name = "game"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("play/<str:code>/", views.play, name="play"),
    path("race/<room:room>/", views.race_page, name="race"),
    path("daily/", views.daily_today, name="daily"),
    path("daily/month/<str:month>/", month.month, name="month"),
    path("daily/all-time/", records.all_time, name="all-time"),
    path("daily/all-time/<str:board>/", records.all_time, name="all-time-board"),
    path("daily/<str:date>/", views.leaderboard, name="leaderboard"),
    path("replay/<room:room>/<int:player>/", views.replay_page, name="replay"),
    path("api/races/", views.api_races, name="api-races"),
    path("api/races/<room:room>/", views.api_race, name="api-race"),
    path("api/replays/<room:room>/<int:player>/", views.api_replay, name="api-replay"),
    path(
        "api/replays/<room:room>/<int:player>/analysis/", views.api_analysis, name="api-analysis"
    ),
    path("api/daily/", views.api_daily, name="api-daily"),
    path("api/daily/<str:date>/leaderboard/", views.api_leaderboard, name="api-leaderboard"),
    path("api/daily/<str:date>/ghost/", views.api_daily_ghost, name="api-daily-ghost"),
    path("api/quick/", views.api_quick, name="api-quick"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
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
