"""The project's wiring: settings from the environment, /healthz, the compose shape."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.apps import apps as django_apps
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
SECRETS = {"SECRET_KEY": "x" * 50, "HALFMOON_DAILY_SECRET": "d" * 50}
"""The variables required when DEBUG is 0 (made up)."""
SCALING = ("DATABASE_REPLICA_URL", "CHANNEL_LAYER_URLS")
"""Settings of docs/scaling.md that a shell may have set: each test gives its own."""


def settings_in_subprocess(**env):
    """Load halfmoon_site.settings in a fresh interpreter with exactly these variables."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", *SECRETS, *SCALING}
        and key != "CHANNEL_LAYER_PREFIX"  # a parallel test worker's own (tests/conftest.py)
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="halfmoon_site.settings")
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'layer': s.CHANNEL_LAYERS['default'], 'db': s.DATABASES['default'],"
        "'replica': s.DATABASES.get('replica'), 'routers': s.DATABASE_ROUTERS,"
        "'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS,"
        "'secure_cookies': [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE]}, default=str))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_redis_url_selects_redis_channel_layer():
    loaded = settings_in_subprocess(REDIS_URL="redis://cache.example:6380/2")
    assert loaded["layer"] == {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": ["redis://cache.example:6380/2"]},
    }


def test_channel_layer_urls_spread_the_layer_over_several_redis():
    loaded = settings_in_subprocess(
        REDIS_URL="redis://a.example:6379/0",
        CHANNEL_LAYER_URLS="redis://a.example:6379/0, redis://b.example:6379/0",
    )
    assert loaded["layer"]["CONFIG"]["hosts"] == [
        "redis://a.example:6379/0",
        "redis://b.example:6379/0",
    ]


def test_a_replica_url_adds_the_replica_with_the_primarys_pool_and_the_router():
    primary = "postgres://u:p@db.example:6543/races"
    loaded = settings_in_subprocess(DATABASE_URL=primary)
    assert loaded["replica"] is None and loaded["routers"] == ["game.base.replica.Router"]
    replica = "postgres://u:p@standby.example:6543/races"
    loaded = settings_in_subprocess(DATABASE_URL=primary, DATABASE_REPLICA_URL=replica)
    assert (loaded["replica"]["HOST"], loaded["replica"]["NAME"]) == ("standby.example", "races")
    assert loaded["replica"]["OPTIONS"] == loaded["db"]["OPTIONS"]
    assert loaded["replica"]["TEST"] == {"MIRROR": "default"}


def test_channel_layer_core_selects_the_list_based_redis_layer():
    loaded = settings_in_subprocess(REDIS_URL="redis://cache.example:6380/2", CHANNEL_LAYER="core")
    assert loaded["layer"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"


def test_no_redis_url_selects_in_memory_layer():
    loaded = settings_in_subprocess()
    assert loaded["layer"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_database_url_is_read_and_connections_are_not_persistent():
    loaded = settings_in_subprocess(DATABASE_URL="postgres://u:p@db.example:6543/races")
    db = loaded["db"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["PORT"], db["NAME"], db["USER"]) == ("db.example", 6543, "races", "u")
    assert db["CONN_MAX_AGE"] == 0


def test_default_database_is_sqlite_file_at_repo_root():
    db = settings_in_subprocess()["db"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(db["NAME"]) == ROOT / "db.sqlite3"
    assert db["CONN_MAX_AGE"] == 0


@pytest.mark.parametrize("missing", sorted(SECRETS))
def test_production_mode_requires_each_secret(missing):
    clean = {k: v for k, v in os.environ.items() if k not in SECRETS}
    given = {name: value for name, value in SECRETS.items() if name != missing}
    clean.update(given, DEBUG="0", DJANGO_SETTINGS_MODULE="halfmoon_site.settings")
    result = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; settings.DEBUG"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


def asgi_start_log(*argv, **env):
    """What loading the ASGI application logs when the process was started with `argv`."""
    clean = {**os.environ, **env, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings"}
    code = f"import sys; sys.argv = {list(argv)!r}; import halfmoon_site.asgi"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stderr


@pytest.mark.parametrize("trusted", ["", "10.0.0.2"])
def test_daphne_with_proxy_headers_is_warned_about_at_start(trusted):
    log = asgi_start_log("daphne", "--proxy-headers", "x", HALFMOON_TRUSTED_PROXIES=trusted)
    assert "WARNING game.base.clients" in log and "HALFMOON_TRUSTED_PROXIES" in log
    assert f"(now: {trusted or 'none'})" in log


def test_daphne_without_proxy_headers_starts_without_a_warning():
    assert "WARNING" not in asgi_start_log("daphne", "-p", "8000", "halfmoon_site.asgi:application")


def test_log_in_receivers_are_connected_at_start_whatever_is_imported():
    """Not only once some module (the URLs) happens to import the receivers' modules."""
    code = (
        "import sys, weakref, django; django.setup()\n"
        "from django.contrib.auth.signals import user_logged_in as a, user_login_failed as b\n"
        "def names(signal):\n"
        "    refs = [r() if isinstance(r, weakref.ref) else r for _, r, _ in signal.receivers]\n"
        "    return [f'{f.__module__}.{f.__qualname__}' for f in refs if f]\n"
        "print('game.urls' in sys.modules, names(a), names(b))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("False ")
    assert "game.players.accounts.play_as_account" in result.stdout
    assert "game.players.login_throttle.count_failure" in result.stdout


def test_allowed_hosts_come_from_the_environment():
    loaded = settings_in_subprocess(
        ALLOWED_HOSTS="race.example, www.race.example", DEBUG="0", **SECRETS
    )
    assert loaded["hosts"] == ["race.example", "www.race.example"]
    assert loaded["debug"] is False


def test_cookies_are_secure_by_default_in_production_only():
    production = settings_in_subprocess(DEBUG="0", **SECRETS)
    assert production["secure_cookies"] == [True, True]
    assert settings_in_subprocess()["secure_cookies"] == [False, False]
    plain = settings_in_subprocess(DEBUG="0", SECURE_COOKIES="0", **SECRETS)
    assert plain["secure_cookies"] == [False, False]


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k7#Qe2!vL9@zR4$wT1^yU6&iO3*pA8(sD5)fG0-hJ2+lZ7=xC4",
    "HALFMOON_DAILY_SECRET": "Vq3-made-up-daily-secret-Xk9-pL2-zR7-wT1-yU6-iO3-a",
    "ALLOWED_HOSTS": "race.example",
    "CSRF_TRUSTED_ORIGINS": "https://race.example",
    "HTTPS": "1",
}
"""The production settings docs/operations.md documents (secrets made up)."""


def test_check_deploy_passes_with_the_documented_production_settings():
    # Only what a deployment sets: the suite's own variables (the browser tests set
    # DJANGO_ALLOW_ASYNC_UNSAFE in this process) are not part of it.
    leave_out = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in leave_out}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, **PRODUCTION, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_documented_production_settings_are_the_ones_checked():
    operations = (ROOT / "docs" / "operations.md").read_text()
    for name, value in PRODUCTION.items():
        if name not in SECRETS:
            assert f"{name}={value}" in operations, name


def test_daphne_is_the_first_installed_app():
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert {"channels", "game"} <= set(settings.INSTALLED_APPS)
    assert django_apps.is_installed("django.contrib.admin")  # as the staff's (game/staff/apps.py)


def test_connections_are_never_persistent():
    assert all(db["CONN_MAX_AGE"] == 0 for db in settings.DATABASES.values())


@pytest.mark.django_db
def test_healthz_reports_database_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails(client, monkeypatch):
    from django.db import OperationalError, connection

    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


@pytest.mark.django_db
def test_lobby_placeholder_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Half Moon Race" in response.content


@pytest.fixture(scope="module")
def services():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def added_for_a_test(line, run_dir):
    """A line game/testing/entrance.py adds: a file of the test's own, that file's log
    format, or the `user` workers run as when the tests run as root."""
    directive = (line.split() or [""])[0]
    if directive in ("log_format", "user"):
        return True
    files = ("pid", "error_log", "access_log")
    return f" {run_dir}/" in line and (directive in files or directive.endswith("_temp_path"))


class TestCompose:
    @staticmethod
    def environment(service):
        env = service.get("environment", {})
        if isinstance(env, list):
            env = dict(item.split("=", 1) for item in env)
        return env

    def test_has_backing_services_migrate_and_two_web_replicas(self, services):
        assert {"postgres", "redis", "migrate", "web1", "web2"} <= set(services)
        assert services["postgres"]["image"].startswith("postgres:16")
        assert services["redis"]["image"].startswith("redis:7")
        assert "migrate" in " ".join(services["migrate"]["command"])

    @pytest.mark.parametrize("name", ["web1", "web2"])
    def test_a_replica_is_given_the_time_its_drain_may_take_before_it_is_killed(
        self, services, name
    ):
        web = services[name]
        drain_s = float(self.environment(web).get("HALFMOON_DRAIN_S", settings.HALFMOON_DRAIN_S))
        grace = web["stop_grace_period"]
        assert grace.endswith("s") and float(grace[:-1]) > 3 * drain_s  # game/realtime/shutdown.py

    @pytest.mark.parametrize("name", ["web1", "web2"])
    def test_web_replicas_run_daphne_on_postgres_and_redis(self, services, name):
        web = services[name]
        assert "daphne" in " ".join(web["command"])
        env = self.environment(web)
        assert env["DATABASE_URL"].startswith("postgres://")
        assert "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert env["DEBUG"] == "0"
        for secret in SECRETS:
            assert env[secret].startswith(f"${{{secret}:?")
        assert {"postgres", "redis", "migrate"} <= set(web["depends_on"])

    def test_replicas_share_database_and_redis(self, services):
        web1, web2 = self.environment(services["web1"]), self.environment(services["web2"])
        assert web1["DATABASE_URL"] == web2["DATABASE_URL"]
        assert web1["REDIS_URL"] == web2["REDIS_URL"]
        assert all(web1[secret] == web2[secret] for secret in SECRETS)

    @pytest.mark.parametrize("name", ["web1", "web2"])
    def test_replicas_believe_x_forwarded_for_from_the_proxy_alone(self, services, name):
        """The clients rule, not daphne's --proxy-headers (which believes anyone)."""
        assert "--proxy-headers" not in services[name]["command"]
        trusted = self.environment(services[name])["HALFMOON_TRUSTED_PROXIES"]
        assert trusted == services["proxy"]["networks"]["default"]["ipv4_address"]

    def test_the_proxy_is_the_only_published_port(self, services):
        published = {name for name, service in services.items() if service.get("ports")}
        assert published == {"proxy"}
        assert services["proxy"]["image"].startswith("nginx:")
        assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in services["proxy"]["volumes"]

    def test_the_proxy_spreads_over_both_replicas_and_bounds_what_it_accepts(self):
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        directives = {
            line.split()[0]: line.split()[1].rstrip(";")
            for line in conf.splitlines()
            if line.strip() and not line.strip().startswith("#") and len(line.split()) > 1
        }
        assert "server web1:8000" in conf and "server web2:8000" in conf
        assert directives["client_max_body_size"] == "16k"
        assert directives["client_header_timeout"] == "10s"
        assert directives["client_body_timeout"] == "10s"
        assert "proxy_set_header Upgrade $http_upgrade;" in conf
        assert "proxy_set_header Connection $connection_upgrade;" in conf

    @pytest.mark.parametrize("name", ["web1", "web2"])
    def test_the_entrance_tests_run_each_replica_with_its_compose_command(
        self, services, name, tmp_path
    ):
        """tests/deploy/test_nginx.py starts daphne as compose does, on a loopback port."""
        from game.testing.entrance import DAPHNE_OPTIONS, REPLICAS
        from game.testing.live import Daphne

        replica = Daphne({}, tmp_path / "unused.log", DAPHNE_OPTIONS)
        local = {"python": [sys.executable], "0.0.0.0": ["127.0.0.1"]}
        local["8000"] = [str(replica.port)]
        command = services[name]["command"]
        assert replica.command() == [part for arg in command for part in local.get(arg, [arg])]
        assert f"{name}:{services[name]['expose'][0]}" in REPLICAS

    def test_the_entrance_tests_listen_where_compose_publishes_the_proxy(self, services):
        from game.testing.entrance import LISTEN

        (published,) = services["proxy"]["ports"]
        assert f"listen {published.rsplit(':', 1)[1]};" == LISTEN

    def test_the_entrance_tests_change_only_addresses_and_paths_of_nginx_conf(self, tmp_path):
        """Put the addresses back and drop the lines the test adds: the file, line for line."""
        from game.testing.entrance import CONF, render

        conf = CONF.read_text()
        assert not [line for line in conf.splitlines() if added_for_a_test(line, tmp_path)]
        rendered = render(conf, 8080, [8001, 8002], tmp_path)
        for address, original in [
            ("listen 127.0.0.1:8080;", "listen 80;"),
            ("server 127.0.0.1:8001 ", "server web1:8000 "),
            ("server 127.0.0.1:8002 ", "server web2:8000 "),
        ]:
            rendered = rendered.replace(address, original)
        lines = rendered.splitlines()
        assert [line for line in lines if not added_for_a_test(line, tmp_path)] == conf.splitlines()

    def test_the_proxy_sends_every_socket_of_a_race_to_one_replica(self):
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        races = conf.split("upstream halfmoon_races {", 1)[1].split("}", 1)[0]
        assert "hash $race_room consistent;" in races
        assert "server web1:8000" in races and "server web2:8000" in races
        sockets = conf.split("location /ws/ {", 1)[1].split("}", 1)[0]
        assert "proxy_pass http://halfmoon_races;" in sockets


def test_django_reads_every_body_the_entrance_passes_and_refuses_bigger_ones():
    """nginx refuses bodies over 16 KiB; Django's own limit is just above it (not its
    2.5 MB default), so a big body reaching daphne directly is refused (413), not read."""
    from django.conf import settings

    assert 16 * 1024 < settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 64 * 1024
    assert "game.web.guards.Door" in settings.MIDDLEWARE


def test_the_production_image_runs_with_debug_off_unless_told_otherwise():
    """`docker run halfmoon-race` without DEBUG must not serve tracebacks with a known key."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    env_block = dockerfile.split("ENV", 1)[1].split("\n\n", 1)[0]
    assert "DEBUG=0" in env_block


def test_the_readme_lists_every_setting_an_operator_can_change():
    import re

    root = Path(__file__).resolve().parents[1]
    settings_text = (root / "halfmoon_site" / "settings.py").read_text()
    readme = (root / "README.md").read_text()
    names = set(re.findall(r'(?:environ\.get|env_list|env_bool)\("(HALFMOON_\w+)"', settings_text))
    assert names, "settings.py reads no HALFMOON_ variable: the pattern above is stale"
    assert sorted(name for name in names if f"`{name}`" not in readme) == []


def test_the_docker_image_installs_dependencies_before_copying_the_code():
    root = Path(__file__).resolve().parents[1]
    lines = (root / "Dockerfile").read_text().splitlines()
    first_copy_of_code = next(i for i, line in enumerate(lines) if line.startswith("COPY . "))
    locked = "--require-hashes --no-deps -r requirements/base.txt"
    dependencies = next(i for i, line in enumerate(lines) if locked in line)
    assert dependencies < first_copy_of_code
    assert all("game" not in line for line in lines[:first_copy_of_code] if line.startswith("COPY"))
