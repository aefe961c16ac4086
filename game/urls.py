from django.urls import path

from . import rooms, views  # noqa: F401 - rooms registers the <room:...> converter

app_name = "game"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("play/<str:code>/", views.play, name="play"),
    path("race/<room:room>/", views.race_page, name="race"),
    path("daily/", views.daily_today, name="daily"),
    path("daily/<str:date>/", views.leaderboard, name="leaderboard"),
    path("replay/<room:room>/<int:player>/", views.replay_page, name="replay"),
    path("api/races/", views.api_races, name="api-races"),
    path("api/races/<room:room>/", views.api_race, name="api-race"),
    path("api/races/<room:room>/hindsight/", views.api_hindsight, name="api-hindsight"),
    path("api/replays/<room:room>/<int:player>/", views.api_replay, name="api-replay"),
    path("api/daily/", views.api_daily, name="api-daily"),
    path("api/daily/<str:date>/leaderboard/", views.api_leaderboard, name="api-leaderboard"),
    path("api/quick/", views.api_quick, name="api-quick"),
    path("healthz", views.healthz, name="healthz"),
]
