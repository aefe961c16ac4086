"""
The settings of the servers and `manage.py` commands the suite starts: production's
(halfmoon_site.settings, from the same environment) with a quick password hash first.

PBKDF2's million rounds cost 0.3 CPU-seconds a sign-up, a log-in and a refused name,
some 25 CPU-seconds of the servers' a run; which hash Django applies is Django's own
business, the same in every page, and production keeps Django's list (a hash of either
kind still checks). The test processes themselves do the same (tests/conftest.py); the
benches start their servers with production's settings.
"""

from django.conf import global_settings

from halfmoon_site.settings import *  # noqa: F403 - production's, then the one change

QUICK_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"
PASSWORD_HASHERS = [QUICK_HASHER, *global_settings.PASSWORD_HASHERS]
