# Half Moon Race: developer entry points. Every target bootstraps .venv itself.
#
# The venv is (re)installed only when pyproject.toml is newer than a stamp file in
# .venv, so a second `make run` or `make test` installs nothing.

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
# Docker image does; with DEBUG on (the default) pages still name the source files.
STATIC_ROOT ?= staticfiles

VPY := $(VENV)/bin/python
PIP := $(VPY) -m pip --disable-pip-version-check

.PHONY: run test test-js lint-imports e2e bench lint migrate clean-venv

run: $(VENV)/.installed-base $(STATIC_ROOT)/staticfiles.json
	@$(VPY) manage.py migrate --noinput -v 0
	@echo "Half Moon Race on http://$(HOST):$(PORT)/"
	@STATIC_ROOT=$(STATIC_ROOT) exec $(VENV)/bin/python -m halfmoon_site.daphne_uvloop -b $(HOST) -p $(PORT) halfmoon_site.asgi:application

# Collected again only when a file of the client changed (the manifest is the stamp).
$(STATIC_ROOT)/staticfiles.json: $(shell find frontend -type f 2>/dev/null) | $(VENV)/.installed-base
	@STATIC_ROOT=$(STATIC_ROOT) $(VPY) manage.py collectstatic --noinput -v 0

migrate: $(VENV)/.installed-base
	$(VPY) manage.py migrate --noinput

# `tests/conftest.py`, run as a script, prints the database the suite should use:
# TEST_DATABASE_URL, else local PostgreSQL when reachable, else "" (SQLite). The last
# line gives the run's wall time and the CPU time of pytest and every process it
# waited for (workers, servers, browsers), user then system: the figures to quote.
# (`times` writes to a file: in a command substitution it would count nothing.) The
# slowest 20 tests are listed above it, so a run that got slower says where.
define pytest
	@start=$$(date +%s); db_url="$$($(VPY) tests/conftest.py)" && \
	DATABASE_URL="$$db_url" $(VPY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup --durations=20 $(1) $(PYTEST_ARGS); \
	status=$$?; wall=$$(( $$(date +%s) - start )); \
	cpu=$$(mktemp) && times >"$$cpu" && \
	echo "pytest: $$((wall / 60)) min $$((wall % 60)) s wall; CPU user, system: $$(tail -n 1 "$$cpu")"; \
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
	$(call pytest,tests/e2e)

bench: $(VENV)/.installed-bench
	@set -e; for script in bench/[!_]*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(VPY) "$$script"; \
	done

lint: $(VENV)/.installed-lint
	$(VENV)/bin/ruff check .

clean-venv:
	rm -rf $(VENV)

$(VPY):
	@test -n "$(PYTHON)" || { echo "No python3.11 or python3 found; set PYTHON=/path/to/python3.11" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Half Moon Race needs Python >= 3.11; $(PYTHON) is older. Set PYTHON=..." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-base: pyproject.toml | $(VPY)
	$(PIP) install -e .
	@touch $@

$(VENV)/.installed-test: $(VENV)/.installed-base
	$(PIP) install -e '.[test]'
	@touch $@

$(VENV)/.installed-bench: $(VENV)/.installed-base
	$(PIP) install -e '.[bench]'
	@touch $@

$(VENV)/.installed-lint: $(VENV)/.installed-base
	$(PIP) install -e '.[lint]'
	@touch $@
