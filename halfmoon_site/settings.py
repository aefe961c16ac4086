"""
Settings for Half Moon Race.

Twelve-factor: everything that differs between a laptop and production comes from
environment variables, with defaults that make `make run` work on a bare machine:

    DEBUG                 "1" (default, local development) or "0" (production)
    SECRET_KEY            required when DEBUG is 0; a fixed insecure key otherwise
    HALFMOON_DAILY_SECRET required when DEBUG is 0: the daily deals come from it
    ALLOWED_HOSTS         comma list, default "127.0.0.1,localhost,[::1],testserver"
    DATABASE_URL          default: SQLite file db.sqlite3 at the repository root
    DATABASE_POOL         "1" (default): a psycopg connection pool per process (PostgreSQL)
    DATABASE_WAIT_S       "2": seconds to wait for a database connection before failing
    DATABASE_REPLICA_URL  unset: a streaming replica of DATABASE_URL for the read-only
                          pages (boards, profiles: game/base/replica.py)
    REDIS_URL             unset: in-memory channel layer (one process only)
    CHANNEL_LAYER         "pubsub" (default) or "core": which channels-redis layer
    CHANNEL_LAYER_PREFIX  channels-redis's prefix for keys and channels, default "asgi"
    CHANNEL_LAYER_URLS    comma list of Redis URLs the channel layer shards its
                          channels and groups over (default: REDIS_URL alone)
    HALFMOON_*            the race server's clock and limits (see the end of this file)
    CSRF_TRUSTED_ORIGINS  comma list of scheme://host[:port], default empty
    SECURE_COOKIES        session/CSRF cookies over HTTPS only; default on when DEBUG is 0
    HTTPS                 "1": served over HTTPS behind the proxy (redirect, HSTS)
    STATIC_ROOT           where `collectstatic` writes hashed, compressed files, served
                          from there; unset: files come from the source tree, unhashed
    LOG_LEVEL             default INFO
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in {"1", "true", "yes", "on"}


def env_list(name, default):
    raw = os.environ.get(name)
    if raw is None:
        raw = default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is 0.")
    SECRET_KEY = "django-insecure-halfmoon-race-local-development-only"

# The day's deals are drawn from an HMAC of the date under this secret
# (game/deals/daily.py): without it nobody can compute a coming day's deal. The same
# on every process; never SECRET_KEY, so rotating one does not change the other.
HALFMOON_DAILY_SECRET = os.environ.get("HALFMOON_DAILY_SECRET", "")
if not HALFMOON_DAILY_SECRET:
    if not DEBUG:
        raise ImproperlyConfigured("HALFMOON_DAILY_SECRET must be set when DEBUG is 0.")
    HALFMOON_DAILY_SECRET = "halfmoon-daily-local-development-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Cookies go over HTTPS only in production unless told otherwise (a plain-HTTP
# deployment must say SECURE_COOKIES=0 on purpose).
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)

# HTTPS=1: the site is served over HTTPS, TLS ending at the proxy in front
# (deploy/nginx.conf), which sets X-Forwarded-Proto; daphne is reachable only
# through it. Plain-HTTP requests are redirected (except the replicas' own health
# check), and browsers are told to use HTTPS only (HSTS).
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # Preloading is a promise to browser vendors that takes months to undo: the
        # operator opts in with HSTS_PRELOAD=1, and `check --deploy` is not nagged.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

INSTALLED_APPS = [
    # daphne first: its runserver replaces Django's, so `manage.py runserver` is ASGI.
    "daphne",
    "game.staff.apps.StaffAdminConfig",  # Django's admin, with the flagged results in its menu
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "game.web.csp.ContentSecurityPolicy",
    "game.web.assets.StaticFiles",  # whitenoise's, a hashed file cached for a year
    # Pages, JSON and the translations gzipped (static files come compressed already,
    # answered above): a game page 11 KB to 3 KB, also under `make run` with no nginx.
    # BREACH: Django's CSRF token is masked afresh on every response, and the
    # middleware pads each body with random bytes ("Heal the BREACH"), so a secret
    # beside reflected input cannot be guessed from the compressed length.
    "django.middleware.gzip.GZipMiddleware",
    # Before anything reads the request: bad characters 400, big bodies 413, outages
    # 503; then Django's sessions, none new for a refused request (game/web/guards.py).
    "game.web.guards.Door",
    "game.web.guards.Sessions",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "game.web.page_turns.OneThread",  # last: every middleware in the request's thread
]

# A body Django will read at all (the entrance refuses over 16 KiB, the API over 4 KiB):
# a bigger one is refused with 413 by game.web.guards.Door before any view runs.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

ROOT_URLCONF = "halfmoon_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "halfmoon_site.asgi.application"

# CONN_MAX_AGE stays 0: under ASGI, ORM calls run in sync_to_async worker threads and
# a persistent connection would be kept per thread and outlive requests.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
    )
}
POSTGRESQL = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
# How long a request or frame waits for the database before failing (a 503, a
# `server_error` frame): an outage is answered in seconds, not after psycopg_pool's
# default 30 s, and a socket or request never hangs on a server that went away.
DATABASE_WAIT_S = float(os.environ.get("DATABASE_WAIT_S", "2"))
DATABASE_POOL_SIZE = 8
# HTTP requests of a process in Django at once; the others wait their turn without a
# thread or a connection (game/web/page_turns.py): fewer than the pool's connections, so
# that the sockets' frames and the heartbeat always find one.
HALFMOON_PAGES_AT_ONCE = int(os.environ.get("HALFMOON_PAGES_AT_ONCE", "6"))
if POSTGRESQL:
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = max(
        1, round(DATABASE_WAIT_S)
    )
if POSTGRESQL and env_bool("DATABASE_POOL", True):
    # A per-process pool (psycopg_pool): with CONN_MAX_AGE=0 every database_sync_to_async
    # call would otherwise open a new PostgreSQL connection (a backend fork, ~5-10 ms).
    # CONN_HEALTH_CHECKS makes Django give the pool `check=ConnectionPool.check_connection`:
    # a pooled connection is tested before it is handed out, so the connections a
    # database restart broke are replaced instead of failing the first requests after it.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": DATABASE_WAIT_S,
    }
if POSTGRESQL:
    # psycopg_pool replaces a lost connection by retrying 1, 2, 4, 8 … s apart (its one
    # backoff policy, shared by Django's pool and game/race/moves.py's read pool, with no
    # setting; the group commit's lanes reconnect by themselves, moves.RECONNECT_S):
    # after a 10 s outage the next try came 4-6 s after PostgreSQL was back, and every
    # move and request failed meanwhile (tests/realtime/test_play_through_faults.py).
    # A try every second (±10%) instead; a refused connection costs next to nothing.
    from psycopg_pool.base import AttemptWithBackoff

    AttemptWithBackoff.DELAY_BACKOFF = 1.0
# A streaming replica (same database, read-only) for the pages about other people:
# the same options and pool as the primary; game/base/replica.py decides what reads it.
if os.environ.get("DATABASE_REPLICA_URL") and POSTGRESQL:
    DATABASES["replica"] = {
        **DATABASES["default"],
        **dj_database_url.parse(os.environ["DATABASE_REPLICA_URL"], conn_max_age=0),
        "OPTIONS": DATABASES["default"]["OPTIONS"],
        "TEST": {"MIRROR": "default"},
    }
DATABASE_ROUTERS = ["game.base.replica.Router"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a lock instead of failing, and take the write lock up front so that
    # concurrent writers queue instead of deadlocking on a lock upgrade.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )

# Several daphne processes share one race only through a Redis channel layer; the
# in-memory layer is for a single process (local development, most tests).
# CHANNEL_LAYER picks the channels-redis backend: "core" (RedisChannelLayer, lists
# per channel) or "pubsub" (RedisPubSubChannelLayer); docs/performance.md has the
# measurements behind the default.
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_LAYERS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in REDIS_LAYERS:
    raise ImproperlyConfigured(f"CHANNEL_LAYER must be one of {', '.join(REDIS_LAYERS)}")
# Several Redis servers for the channel layer: channels-redis hashes each channel and
# group name to one of them (docs/scaling.md); the other stores stay on REDIS_URL.
CHANNEL_LAYER_URLS = [
    url.strip() for url in os.environ.get("CHANNEL_LAYER_URLS", REDIS_URL).split(",") if url.strip()
]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": REDIS_LAYERS[CHANNEL_LAYER], "CONFIG": {"hosts": CHANNEL_LAYER_URLS}}
    }
    # Redis pub/sub ignores the database number: sites that share a Redis (parallel
    # test workers) each set a prefix of their own (channels-redis's default: "asgi").
    if os.environ.get("CHANNEL_LAYER_PREFIX"):
        CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["CHANNEL_LAYER_PREFIX"]
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Accounts (game/players/accounts.py): Django's auth views; where they go afterwards.
# A username logs in in any spelling (case, width, whitespace around it): one identity.
AUTHENTICATION_BACKENDS = ["game.players.accounts.AnySpelling"]
LOGIN_URL = "game:login"
LOGIN_REDIRECT_URL = "game:me"
LOGOUT_REDIRECT_URL = "game:lobby"
# Django's cache (the log-in throttle): Redis when there is one, so every
# process shares it; else this process's memory.
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }

# Database sessions: a player's session is valid on every server process.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("ca", "Català"),
    ("ro", "Română"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# The browser client is plain static files (no build step), served by whitenoise
# from every daphne process (game/web/assets.py). With STATIC_ROOT (the Docker image,
# `make run`, the browser tests) `collectstatic` writes them there under hashed names
# with gzip and brotli copies, and pages name the hashed files, cached for a year;
# with DEBUG on, pages name the source files, fresh on every load. Without
# STATIC_ROOT they come from the source tree, unhashed and uncompressed.
STATIC_URL = "/static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
STATICFILES_DIRS = [BASE_DIR / "frontend"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "game.web.assets.Assets"
        if STATIC_ROOT
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG or not STATIC_ROOT

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name} {process}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# The race server's clock (game/race/actions.py). Tests and benchmarks shorten them.
HALFMOON_COUNTDOWN_S = float(os.environ.get("HALFMOON_COUNTDOWN_S", "3"))
HALFMOON_TIME_LIMIT_S = int(os.environ.get("HALFMOON_TIME_LIMIT_S", "900"))
# An event's live standings are computed at most this often, once for all its sockets
# (game/events/live.py).
HALFMOON_EVENT_TICK_S = float(os.environ.get("HALFMOON_EVENT_TICK_S", "1"))
# Frames one websocket may send: a burst, then a sustained rate (more: closed, 1008).
HALFMOON_FRAME_RATE = float(os.environ.get("HALFMOON_FRAME_RATE", "20"))
HALFMOON_FRAME_BURST = int(os.environ.get("HALFMOON_FRAME_BURST", "40"))
# What all sockets of one session, and of one client address, may send together in
# one process (past it a frame is answered `busy`), and how many frames may wait:
# per socket, and in the whole process (game/realtime/admission.py). A load test from one
# address raises the address budget.
HALFMOON_SESSION_FRAME_RATE = float(os.environ.get("HALFMOON_SESSION_FRAME_RATE", "30"))
HALFMOON_SESSION_FRAME_BURST = int(os.environ.get("HALFMOON_SESSION_FRAME_BURST", "60"))
HALFMOON_ADDRESS_FRAME_RATE = float(os.environ.get("HALFMOON_ADDRESS_FRAME_RATE", "200"))
HALFMOON_ADDRESS_FRAME_BURST = int(os.environ.get("HALFMOON_ADDRESS_FRAME_BURST", "400"))
HALFMOON_SOCKET_QUEUE = int(os.environ.get("HALFMOON_SOCKET_QUEUE", "16"))
HALFMOON_PROCESS_QUEUE = int(os.environ.get("HALFMOON_PROCESS_QUEUE", "2000"))
# The fast move path (game/race/moves.py): async PostgreSQL connections per process, one
# held by each lane of the group commit, so at most this many group-commit transactions at
# once (each connection opened within DATABASE_WAIT_S, like the ORM's wait for one).
HALFMOON_MOVE_CONNECTIONS = int(os.environ.get("HALFMOON_MOVE_CONNECTIONS", "4"))
# A socket that sends nothing, not even the client's ping, for this long is closed (4408).
HALFMOON_IDLE_S = float(os.environ.get("HALFMOON_IDLE_S", "600"))
# On SIGTERM (game/realtime/shutdown.py) a process closes its race sockets with 1012 once
# their frames in hand are done, waiting at most this long before daphne stops.
HALFMOON_DRAIN_S = float(os.environ.get("HALFMOON_DRAIN_S", "5"))
# /metrics (game/web/metrics.py) answers only clients in these networks (comma list).
HALFMOON_METRICS_ALLOW = env_list("HALFMOON_METRICS_ALLOW", "127.0.0.1/32,::1/128")
# Presence (game/base/presence.py): each live socket's mark is refreshed every
# HALFMOON_HEARTBEAT_S and runs out HALFMOON_PRESENCE_TTL_S after the last refresh;
# a player gone for HALFMOON_ABANDON_S from a running race is counted out, and a
# host gone that long from the lobby hands the race over.
HALFMOON_HEARTBEAT_S = float(os.environ.get("HALFMOON_HEARTBEAT_S", "5"))
HALFMOON_PRESENCE_TTL_S = float(os.environ.get("HALFMOON_PRESENCE_TTL_S", "15"))
HALFMOON_ABANDON_S = float(os.environ.get("HALFMOON_ABANDON_S", "30"))
# Quick race (game/lobby/quick.py): a race starts by itself once 3+ players have waited
# HALFMOON_QUICK_WAIT_S (2 players: HALFMOON_QUICK_WAIT_PAIR_S); a waiting player who
# has not polled for HALFMOON_QUICK_STALE_S has left the queue.
HALFMOON_QUICK_WAIT_S = float(os.environ.get("HALFMOON_QUICK_WAIT_S", "5"))
HALFMOON_QUICK_WAIT_PAIR_S = float(os.environ.get("HALFMOON_QUICK_WAIT_PAIR_S", "10"))
HALFMOON_QUICK_STALE_S = float(os.environ.get("HALFMOON_QUICK_STALE_S", "5"))
# A seated player must connect within HALFMOON_QUICK_SHOW_S (the quick race's countdown);
# one who did not is not seated again for HALFMOON_QUICK_NO_SHOW_S.
HALFMOON_QUICK_SHOW_S = float(os.environ.get("HALFMOON_QUICK_SHOW_S", "6"))
HALFMOON_QUICK_NO_SHOW_S = float(os.environ.get("HALFMOON_QUICK_NO_SHOW_S", "60"))
# A player alone in the quick-race queue for HALFMOON_QUICK_ALONE_S is offered a
# recorded game to race meanwhile, keeping their seat (game/lobby/recorded.py).
HALFMOON_QUICK_ALONE_S = float(os.environ.get("HALFMOON_QUICK_ALONE_S", "20"))
# Rated quick races (game/lobby/quick.py, game/race/rated.py): players matched within
# HALFMOON_RATED_WINDOW of each other's rating, widened by HALFMOON_RATED_WIDEN every
# HALFMOON_RATED_WIDEN_S of waiting; up to 4 a race; the same two accounts' rated
# games count at most HALFMOON_RATED_PAIR_DAILY times a (UTC) day.
HALFMOON_RATED_WINDOW = float(os.environ.get("HALFMOON_RATED_WINDOW", "100"))
HALFMOON_RATED_WIDEN = float(os.environ.get("HALFMOON_RATED_WIDEN", "50"))
HALFMOON_RATED_WIDEN_S = float(os.environ.get("HALFMOON_RATED_WIDEN_S", "5"))
HALFMOON_RATED_MAX_PLAYERS = int(os.environ.get("HALFMOON_RATED_MAX_PLAYERS", "4"))
HALFMOON_RATED_PAIR_DAILY = int(os.environ.get("HALFMOON_RATED_PAIR_DAILY", "3"))
# A rated race that lasted under HALFMOON_RATED_MIN_S is not rated; a player who gave up
# or left before HALFMOON_RATED_MIN_MOVES moves is left out of its rating.
HALFMOON_RATED_MIN_S = float(os.environ.get("HALFMOON_RATED_MIN_S", "30"))
HALFMOON_RATED_MIN_MOVES = int(os.environ.get("HALFMOON_RATED_MIN_MOVES", "10"))
# An account gains at most HALFMOON_RATED_NEW_DAILY rating points a (UTC) day against
# accounts younger than HALFMOON_RATED_NEW_DAYS or sharing its sign-up or last address
# (docs/ratings.md, "Farming").
HALFMOON_RATED_NEW_DAILY = float(os.environ.get("HALFMOON_RATED_NEW_DAILY", "30"))
HALFMOON_RATED_NEW_DAYS = float(os.environ.get("HALFMOON_RATED_NEW_DAYS", "7"))
# Daily deal (game/deals/daily.py): solver budget for each candidate deal without a verdict.
HALFMOON_DAILY_SOLVE_S = float(os.environ.get("HALFMOON_DAILY_SOLVE_S", "0.5"))
# After-game analysis (game/replays/analysis.py): solver budget per position of a finished game.
HALFMOON_ANALYSIS_SOLVE_S = float(os.environ.get("HALFMOON_ANALYSIS_SOLVE_S", "1"))
# Result checks (game/race/fairplay.py): a win is flagged when its median gap between
# moves is under HALFMOON_FLAG_MEDIAN_GAP_S, it took under HALFMOON_FLAG_MIN_WIN_S, its
# gaps vary less than HALFMOON_FLAG_MIN_CV (standard deviation over mean), its first
# move came within HALFMOON_FLAG_FIRST_MOVE_S with no gap as long as HALFMOON_FLAG_PAUSE_S,
# a share HALFMOON_FLAG_SOLVER_SHARE of its line is the solver's, or more than
# HALFMOON_FLAG_PEEKS moves were undone at once (docs/fair-play.md explains the defaults,
# bench/fairplay_rates.py measures them).
HALFMOON_FLAG_MEDIAN_GAP_S = float(os.environ.get("HALFMOON_FLAG_MEDIAN_GAP_S", "0.4"))
HALFMOON_FLAG_MIN_WIN_S = float(os.environ.get("HALFMOON_FLAG_MIN_WIN_S", "20"))
HALFMOON_FLAG_MIN_CV = float(os.environ.get("HALFMOON_FLAG_MIN_CV", "0.25"))
HALFMOON_FLAG_FIRST_MOVE_S = float(os.environ.get("HALFMOON_FLAG_FIRST_MOVE_S", "0.8"))
HALFMOON_FLAG_PAUSE_S = float(os.environ.get("HALFMOON_FLAG_PAUSE_S", "2"))
HALFMOON_FLAG_SOLVER_SHARE = float(os.environ.get("HALFMOON_FLAG_SOLVER_SHARE", "0.7"))
HALFMOON_FLAG_PEEKS = int(os.environ.get("HALFMOON_FLAG_PEEKS", "10"))
# Limits (game/base/limits.py), "count/seconds", per player and per client address, counted
# in Redis when REDIS_URL is set: creating races (POST /api/races/, /play/, /daily/),
# polling the quick-race queue, signing up.
HALFMOON_CREATE_LIMIT = os.environ.get("HALFMOON_CREATE_LIMIT", "30/60")
HALFMOON_CREATE_ADDRESS_LIMIT = os.environ.get("HALFMOON_CREATE_ADDRESS_LIMIT", "120/60")
HALFMOON_POLL_LIMIT = os.environ.get("HALFMOON_POLL_LIMIT", "90/60")
HALFMOON_POLL_ADDRESS_LIMIT = os.environ.get("HALFMOON_POLL_ADDRESS_LIMIT", "900/60")
HALFMOON_SIGNUP_ADDRESS_LIMIT = os.environ.get("HALFMOON_SIGNUP_ADDRESS_LIMIT", "5/3600")
# Guest entries in events per client address: a spare cookie is free, as an account is not.
HALFMOON_EVENT_GUEST_ADDRESS_LIMIT = os.environ.get("HALFMOON_EVENT_GUEST_ADDRESS_LIMIT", "10/3600")
# Websockets to a path no consumer serves, per address: closed 4400 and logged in one
# line each; past this, refused without a line (game/realtime/nowhere.py).
HALFMOON_UNKNOWN_SOCKET_ADDRESS_LIMIT = os.environ.get(
    "HALFMOON_UNKNOWN_SOCKET_ADDRESS_LIMIT", "10/60"
)
# The public read-only API (profiles, the rating board: docs/api.md) and the same pages
# in HTML (/players/<name>/, /me/, /ratings/), counted together.
HALFMOON_READ_LIMIT = os.environ.get("HALFMOON_READ_LIMIT", "60/60")
HALFMOON_READ_ADDRESS_LIMIT = os.environ.get("HALFMOON_READ_ADDRESS_LIMIT", "600/60")
# Follows, blocks, challenges sent, declined and cancelled (a script toggled 200 in 4 s).
HALFMOON_SOCIAL_LIMIT = os.environ.get("HALFMOON_SOCIAL_LIMIT", "30/60")
HALFMOON_SOCIAL_ADDRESS_LIMIT = os.environ.get("HALFMOON_SOCIAL_ADDRESS_LIMIT", "120/60")
# An account younger than this (hours) plays the guests' daily deal, unranked
# (game/players/accounts.py): new accounts cannot fill a day's ranks at once.
HALFMOON_RANKED_MIN_AGE_H = float(os.environ.get("HALFMOON_RANKED_MIN_AGE_H", "24"))
# Open websockets at once, per session and per client address.
HALFMOON_SOCKETS_PER_SESSION = int(os.environ.get("HALFMOON_SOCKETS_PER_SESSION", "4"))
HALFMOON_SOCKETS_PER_ADDRESS = int(os.environ.get("HALFMOON_SOCKETS_PER_ADDRESS", "40"))
# Proxies whose X-Forwarded-For is believed (comma list of addresses or networks):
# game/base/clients.py, the one rule for a client's address.
HALFMOON_TRUSTED_PROXIES = env_list("HALFMOON_TRUSTED_PROXIES", "")
# Log-ins, players' and admin's (game/players/login_throttle.py): this many failures from one
# address, or for one username, within the window, and its log-ins are refused until it passes.
HALFMOON_LOGIN_FAILURES = int(os.environ.get("HALFMOON_LOGIN_FAILURES", "5"))
HALFMOON_LOGIN_WINDOW_S = int(os.environ.get("HALFMOON_LOGIN_WINDOW_S", "900"))
# The solver runs in this many worker processes per server process (game/solver/pool.py),
# never in a request: the server's own CPU belongs to the players' moves.
HALFMOON_SOLVER_PROCESSES = int(os.environ.get("HALFMOON_SOLVER_PROCESSES", "1"))

# A verified #1 (game/race/verify.py, docs/fair-play.md): a top win faster than
# HALFMOON_VERIFY_FRACTION of the median of the player's last HALFMOON_VERIFY_HISTORY
# ranked daily wins (with at least HALFMOON_VERIFY_MIN_HISTORY of them) is held until
# the player wins a verification deal at no more than HALFMOON_VERIFY_PACE_SLACK times
# its time a move.
HALFMOON_VERIFY_FRACTION = float(os.environ.get("HALFMOON_VERIFY_FRACTION", "0.5"))
HALFMOON_VERIFY_HISTORY = int(os.environ.get("HALFMOON_VERIFY_HISTORY", "10"))
HALFMOON_VERIFY_MIN_HISTORY = int(os.environ.get("HALFMOON_VERIFY_MIN_HISTORY", "5"))
HALFMOON_VERIFY_PACE_SLACK = float(os.environ.get("HALFMOON_VERIFY_PACE_SLACK", "1.25"))

# Reminders by web push (game/reminders/, docs/operations.md "Reminders"): the server's
# VAPID private key (base64url, `manage.py vapid_key` makes one; none: reminders off),
# the contact push services see, and the push services the server posts to — only
# these, whatever address a browser sends (a script's subscription cannot make the
# server post inside the network).
HALFMOON_VAPID_PRIVATE_KEY = os.environ.get("HALFMOON_VAPID_PRIVATE_KEY", "").strip()
HALFMOON_VAPID_SUBJECT = os.environ.get("HALFMOON_VAPID_SUBJECT", "mailto:staff@halfmoon.invalid")
HALFMOON_PUSH_SERVICES = env_list(
    "HALFMOON_PUSH_SERVICES",
    "https://fcm.googleapis.com,https://updates.push.services.mozilla.com,"
    "https://*.push.services.mozilla.com,https://*.push.apple.com,https://*.notify.windows.com",
)
HALFMOON_REMINDER_EVENT_S = float(os.environ.get("HALFMOON_REMINDER_EVENT_S", "600"))
"""How long before an event joined its reminder goes."""
