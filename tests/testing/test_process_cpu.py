"""
`make test-cpu`'s reader (game/testing/process_cpu.py): each process the suite starts is
named by its kind, and a command's busy child is found with the CPU it used.
"""

import sys

from game.testing import process_cpu

SEEN = {
    "/usr/lib/chromium/chromium-headless-shell --type=renderer --lang=en": "Chromium renderers",
    "/usr/lib/chromium/chromium-headless-shell --type=gpu-process --no-sandbox": "Chromium GPU",
    "/usr/lib/chromium/chromium-headless-shell --type=zygote --no-zygote-sandbox": (
        "Chromium zygotes and utilities"
    ),
    "/usr/lib/chromium/chromium-headless-shell --disable-field-trial-config --headless": (
        "Chromium browsers"
    ),
    ".venv/lib/python3.11/site-packages/playwright/driver/node .../cli.js run-driver": (
        "Playwright drivers"
    ),
    "node --test --test-reporter=dot tests/js/table.test.mjs": "node (tests/js)",
    ".venv/bin/python -m halfmoon_site.daphne_uvloop -b 127.0.0.1 -p 11231 app": "daphne servers",
    ".venv/bin/python -m game.testing.forks": "daphne servers",  # and its forks
    ".venv/bin/python manage.py shell -c pass": "manage.py commands",
    ".venv/bin/python -m game.testing.commands": "manage.py commands",
    "[hm-commands] .venv/bin/python -m game.testing.forks": "manage.py commands",  # forks'
    ".venv/bin/python -c from multiprocessing.forkserver import main; main(37, 38)": (
        "solver forkservers and workers"
    ),
    ".venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))": "pytest workers",
    ".venv/bin/python -m pytest -q -n 4 --dist loadgroup": "pytest",
    "postgres: 15/main: postgres test_halfmoon_gw1 127.0.0.1(53752) idle": "PostgreSQL",
    "/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main": "PostgreSQL",
    "redis-server 127.0.0.1:6379": "Redis",
    "nginx: worker process": "nginx",
    "/usr/bin/make --no-print-directory test": "other: make",
}


def test_every_process_the_suite_starts_is_named_by_its_kind():
    assert {line: process_cpu.kind(line) for line in SEEN} == SEEN


BUSY = f"""
import time
end = time.process_time() + 0.6
while time.process_time() < end:
    pass
time.sleep({4 * process_cpu.EVERY})  # read again after the work, before the process ends
raise SystemExit(3)
"""


def test_a_busy_child_is_found_with_its_cpu_and_the_commands_status_is_kept():
    status, used = process_cpu.measure([sys.executable, "-c", BUSY])
    assert status == 3
    count, seconds = used[f"other: {sys.executable.rsplit('/', 1)[-1]}"]
    assert count >= 1 and seconds >= 0.5
    lines = process_cpu.table(used)
    assert lines[-1].split()[0] == "all" and float(lines[-1].split()[-1]) >= round(seconds, 1)
