"""
The settings of the servers and commands the suite starts (game/testing/settings.py):
production's, but a password is hashed the quick way; production keeps PBKDF2 first,
and a password hashed either way still checks in both.
"""

import pytest

from game.testing import live

HASH = """
from django.contrib.auth.hashers import check_password, make_password
print(make_password("a-long-password"))
print(check_password("a-long-password", {other!r}))
"""


@pytest.fixture
def database(tmp_path):
    return f"sqlite:///{tmp_path / 'db.sqlite3'}"


def hashed(env, other=""):
    """How `env`'s settings hash a password, and whether `other` checks."""
    made, checks = live.manage(env, "shell", "-v", "0", "-c", HASH.format(other=other)).split()
    return made, checks == "True"


def test_the_suites_servers_hash_quickly_and_production_keeps_pbkdf2(database):
    assert live.SETTINGS_MODULE == "game.testing.settings"  # the suite's choice
    suites = live.environment(database)
    production = {**suites, "DJANGO_SETTINGS_MODULE": "halfmoon_site.settings"}
    quick, _ = hashed(suites)
    slow, quick_checks = hashed(production, other=quick)
    assert quick.startswith("md5$") and slow.startswith("pbkdf2_sha256$")
    assert quick_checks is False  # production knows no MD5 hash
    assert hashed(suites, other=slow)[1] is True  # the suite's still checks PBKDF2's
