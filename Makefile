# Half Moon Race: developer entry points. Every target bootstraps .venv itself.
#
# Every target installs from the lock (requirements/<set>.txt, made by `make lock`):
# each package at its locked version, its file checked against the locked sha256s.
# The venv is (re)installed only when a lock file or pyproject.toml is newer than a
# stamp file in .venv, so a second `make run` or `make test` installs nothing.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
VENV ?= .venv
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# pytest-xdist workers, each with its own database, Redis database and ports
# (tests/conftest.py). More than the cores: the suite mostly waits on servers,
# browsers and outages. `loadgroup`: a browser test file stays on one worker, and
# the multiprocess tests run one at a time on one. PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= 4
NODE ?= node
# Where `make run` collects the static files (hashed, gzip and brotli copies), as the
# Docker image does. `make run` serves them as production does, DEBUG off: hashed names
# cached for a year, compressed, and a player's 404 is the site's page, never Django's
# list of every URL. `make run DEBUG=1` for Django's error pages and unhashed names.
STATIC_ROOT ?= staticfiles
DEBUG ?= 0
# With DEBUG off the settings require real secrets (production stays strict); `make run`
# brings its own, for this machine only, unless the environment has them. Plain HTTP.
SECRET_KEY ?= make-run-local-development-only-not-a-secret-0123456789abcdef
HALFMOON_DAILY_SECRET ?= make-run-daily-local-development-only
SECURE_COOKIES ?= 0
RUN_ENV := DEBUG=$(DEBUG) SECRET_KEY=$(SECRET_KEY) HALFMOON_DAILY_SECRET=$(HALFMOON_DAILY_SECRET) \
	SECURE_COOKIES=$(SECURE_COOKIES) STATIC_ROOT=$(STATIC_ROOT)

VPY := $(VENV)/bin/python
PIP := $(VPY) -m pip --disable-pip-version-check
# The locked bytes only; then the project itself, built by the locked setuptools.
LOCKED := $(PIP) install --require-hashes --no-deps -r
PROJECT := $(PIP) install --no-deps --no-build-isolation -e .
# `make lock`: resolved on PyPI alone (never a machine's pip.conf) for CPython 3.11 on
# Linux, environment markers kept. A package already locked keeps its version unless
# pyproject.toml needs another: LOCK_ARGS=--upgrade (or --upgrade-package NAME) moves it.
UV ?= $(VENV)/bin/uv
LOCK_ARGS ?=
COMPILE := $(UV) pip compile --quiet --no-config --index-url https://pypi.org/simple \
	--python-version 3.11 --python-platform linux --no-strip-markers --generate-hashes \
	--custom-compile-command "make lock"
BUILD_REQUIRES := $(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')"

.PHONY: run test test-cpu test-js lint-imports e2e bench lint lock migrate clean-venv

run: $(VENV)/.installed-base $(STATIC_ROOT)/staticfiles.json
	@$(RUN_ENV) $(VPY) manage.py migrate --noinput -v 0
	@echo "Half Moon Race on http://$(HOST):$(PORT)/ (DEBUG=$(DEBUG))"
	@$(RUN_ENV) exec $(VENV)/bin/python -m halfmoon_site.daphne_uvloop -b $(HOST) -p $(PORT) halfmoon_site.asgi:application

# Collected again only when a file of the client changed (the manifest is the stamp).
$(STATIC_ROOT)/staticfiles.json: $(shell find frontend -type f 2>/dev/null) | $(VENV)/.installed-base
	@STATIC_ROOT=$(STATIC_ROOT) $(VPY) manage.py collectstatic --noinput -v 0

migrate: $(VENV)/.installed-base
	$(VPY) manage.py migrate --noinput

# `tests/conftest.py`, run as a script, prints the database the suite should use:
# TEST_DATABASE_URL, else local PostgreSQL when reachable, else "" (SQLite). The last
# line gives the run's wall time, the CPU time of pytest and every process it waited
# for, user then system (`times` writes to a file: in a command substitution it would
# count nothing), and the machine's busy CPU over the run (/proc/stat, all cores): the
# figures to quote. The first misses what no test process waits for — Chromium's
# renderers, the shared PostgreSQL and Redis — which the second counts, with whatever
# else the machine ran meanwhile. The slowest 20 tests are listed above it, so a run
# that got slower says where. Bytecode is cached (PYTHONDONTWRITEBYTECODE emptied, as a
# shell or an image may set it): the suite starts some 250 Python processes (servers,
# manage.py commands), and each compiled the project's 170 modules again, 0.12 s of CPU.
BUSY_CPU_S := awk '/^cpu /{print ($$2+$$3+$$4+$$7+$$8) / 100; exit}' /proc/stat 2>/dev/null || echo 0
define pytest
	@start=$$(date +%s); busy=$$($(BUSY_CPU_S)); db_url="$$($(VPY) tests/conftest.py)" && \
	PYTHONDONTWRITEBYTECODE= DATABASE_URL="$$db_url" $(VPY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup --durations=20 $(1) $(PYTEST_ARGS); \
	status=$$?; wall=$$(( $$(date +%s) - start )); \
	busy=$$(awk -v a="$$busy" -v b="$$($(BUSY_CPU_S))" 'BEGIN {printf "%.0f", b - a}'); \
	cpu=$$(mktemp) && times >"$$cpu" && \
	echo "pytest: $$((wall / 60)) min $$((wall % 60)) s wall; CPU user, system: $$(tail -n 1 "$$cpu"); machine busy $$((busy / 60)) min $$((busy % 60)) s of $$(nproc) cores"; \
	rm -f "$$cpu"; \
	exit $$status
endef

# The JavaScript rule and tap tests (tests/js) need only Node's own test runner.
# Without node they are skipped with a warning, except under CI, where they fail.
test-js:
	@if command -v $(NODE) >/dev/null 2>&1; then \
		$(NODE) --test --test-reporter=dot tests/js/*.test.mjs; \
	elif [ -n "$$CI" ]; then \
		echo "test-js: no '$(NODE)' found; CI must run tests/js (install nodejs)" >&2; exit 1; \
	else \
		echo "test-js: SKIPPED tests/js: no '$(NODE)' found (install nodejs to run them)" >&2; \
	fi

# The layer contract (pyproject.toml, [tool.importlinter]): a new import against the
# order of the packages fails the suite before any test runs.
lint-imports: $(VENV)/.installed-test
	@$(VENV)/bin/lint-imports --no-cache

test: test-js lint-imports $(VENV)/.installed-test
	$(call pytest,)

e2e: $(VENV)/.installed-test
	$(call pytest,-m e2e)

# `make test`, then the CPU every kind of process of the machine used meanwhile:
# Chromium's renderers, the tests' servers, PostgreSQL... (game/testing/process_cpu.py).
test-cpu: $(VENV)/.installed-test
	$(VPY) -m game.testing.process_cpu $(MAKE) --no-print-directory test

bench: $(VENV)/.installed-bench
	@set -e; for script in bench/[!_]*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(VPY) "$$script"; \
	done

lint: $(VENV)/.installed-lint
	$(VENV)/bin/ruff check .

# One resolution of every set (all.txt), then each set constrained to it: a package
# has the same version and hashes in every file. The build's setuptools is in each.
lock: | $(UV)
	$(BUILD_REQUIRES) | $(COMPILE) $(LOCK_ARGS) pyproject.toml - --all-extras -o requirements/all.txt
	$(BUILD_REQUIRES) | $(COMPILE) pyproject.toml - -c requirements/all.txt -o requirements/base.txt
	@set -e; for set in test bench lint; do \
		$(BUILD_REQUIRES) | $(COMPILE) pyproject.toml - --extra $$set -c requirements/all.txt \
			-o requirements/$$set.txt; \
	done

$(VENV)/bin/uv: | $(VENV)/.installed-lint

clean-venv:
	rm -rf $(VENV)

$(VPY):
	@test -n "$(PYTHON)" || { echo "No python3.11 or python3 found; set PYTHON=/path/to/python3.11" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Half Moon Race needs Python >= 3.11; $(PYTHON) is older. Set PYTHON=..." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-base: requirements/base.txt pyproject.toml | $(VPY)
	$(LOCKED) requirements/base.txt
	$(PROJECT)
	@touch $@

$(VENV)/.installed-%: requirements/%.txt $(VENV)/.installed-base
	$(LOCKED) $<
	@touch $@
