"""
The house's structure, as docs/architecture.md draws it: game/ holds packages by job and
Django's conventional modules only, each package says its job, each module why it exists,
and the imports between modules run one way (the layers themselves are import-linter's
contract in pyproject.toml, run by `make test` before this suite).
"""

import ast
import tomllib
from pathlib import Path
from types import SimpleNamespace

import grimp
import pytest

from tests.layout import misplaced

GAME = Path(__file__).resolve().parents[1] / "game"
CONTRACTS = tomllib.loads((GAME.parent / "pyproject.toml").read_text())["tool"]["importlinter"][
    "contracts"
]
OUTSIDE_THE_LAYERS = {"game.migrations", "game.testing"}
CONVENTIONAL = {"__init__.py", "apps.py", "admin.py", "urls.py", "routing.py"}
LONGEST_FUNCTION = 40


def modules():
    for path in sorted(GAME.rglob("*.py")):
        if "migrations" not in path.parts:
            yield path


def test_game_holds_packages_and_djangos_conventional_modules_only():
    loose = {p.name for p in GAME.glob("*.py")} - CONVENTIONAL
    assert not loose, f"modules outside a package: {sorted(loose)}"


@pytest.mark.parametrize("package", sorted(p.parent.name for p in GAME.glob("*/__init__.py")))
def test_every_package_says_its_job_in_two_lines(package):
    doc = ast.get_docstring(ast.parse((GAME / package / "__init__.py").read_text()))
    if package in {"management", "templatetags", "testing", "migrations"}:
        return  # Django's own folders and the test launcher: their modules say it
    assert doc, f"game/{package}/__init__.py has no docstring"
    assert len(doc.strip().splitlines()) <= 2, f"game/{package}: more than two lines"


def test_every_module_says_why_it_exists():
    bare = [
        str(path.relative_to(GAME))
        for path in modules()
        if path.name != "__init__.py" and not ast.get_docstring(ast.parse(path.read_text()))
    ]
    assert not bare, f"modules without a docstring: {bare}"


def test_no_function_is_longer_than_forty_lines():
    long = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > LONGEST_FUNCTION:
                    long.append(f"{path.relative_to(GAME)}:{node.lineno} {node.name} ({length})")
    assert not long, f"functions over {LONGEST_FUNCTION} lines: {long}"


def imported_by(path):
    """The absolute names of the modules a file imports, at its top or inside a function."""
    package = ".".join(path.relative_to(GAME.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            yield ".".join(part for part in (base, node.module) if part)


def test_no_migration_imports_the_game():
    """A migration runs on the schema of its own day, which today's code (game.*) outgrows:
    0012 once called today's records code, so a database at 0011 holding a ranked win could
    not upgrade. Historical models (`apps.get_model`) and a frozen copy of the logic, in
    the migration or a module of game/migrations/, never change with the code."""
    found = [
        f"{path.name} imports {name}"
        for path in sorted((GAME / "migrations").glob("*.py"))
        for name in imported_by(path)
        if name.split(".")[0] == "game" and not name.startswith("game.migrations")
    ]
    assert not found, found


def test_no_import_cycle_in_game():
    graph = grimp.build_graph("game")
    cycles = []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                cycles.append(" -> ".join([module, *back]))
    assert not cycles, f"import cycles: {cycles}"


def layers():
    """The layer contract's layers, top first, each a list of its packages."""
    contract = next(c for c in CONTRACTS if c["type"] == "layers")
    return [[name.strip() for name in layer.split("|")] for layer in contract["layers"]]


def contract(name_starts):
    return next(c for c in CONTRACTS if c["name"].startswith(name_starts))


def test_the_contract_names_every_package_and_module_of_game():
    """A new package is in a layer, and the product's and the migrations' forbidden lists
    name it too (they are lists by hand: this test keeps them whole)."""
    present = {f"game.{path.parent.name}" for path in GAME.glob("*/__init__.py")} | {
        f"game.{path.stem}" for path in GAME.glob("*.py") if path.name != "__init__.py"
    }
    layered = {name for layer in layers() for name in layer}
    assert layered | OUTSIDE_THE_LAYERS == present, present ^ (layered | OUTSIDE_THE_LAYERS)
    product = contract("The product never imports the test launcher")
    assert set(product["source_modules"]) == present - {"game.testing"}
    assert product["forbidden_modules"] == ["game.testing"]
    migrations = contract("A migration imports no game code")
    assert migrations["source_modules"] == ["game.migrations"]
    assert set(migrations["forbidden_modules"]) == present - {"game.migrations"}


def test_every_layer_imports_the_layer_just_below():
    """A layer above another claims it needs it: some package of the upper one imports
    one of the lower. Where none does, the two are siblings and belong in one layer
    (`a | b`, which import-linter keeps independent). Directly, since a chain between
    two adjacent layers could only pass through lower layers, which never import up."""
    graph = grimp.build_graph("game")
    unneeded = [
        f"{' | '.join(upper)} over {' | '.join(lower)}"
        for upper, lower in zip(layers(), layers()[1:], strict=False)
        if not any(
            graph.direct_import_exists(importer=above, imported=below, as_packages=True)
            for above in upper
            for below in lower
        )
    ]
    assert not unneeded, f"layers in an order no import needs: {unneeded}"


def test_every_page_is_a_view_of_game_web():
    """One home for pages: every address of game/urls.py is answered by a view of
    game/web/ (or one of Django's own auth views), so the packages below return data and
    render nothing."""
    import django
    from django.urls import URLPattern, get_resolver

    django.setup()

    def view_of(callback):
        callback = getattr(callback, "view_class", callback)
        while hasattr(callback, "__wrapped__"):
            callback = callback.__wrapped__
        return f"{callback.__module__}.{callback.__qualname__}"

    elsewhere = [
        f"{pattern.pattern} -> {view_of(pattern.callback)}"
        for pattern in get_resolver("game.urls").url_patterns
        if isinstance(pattern, URLPattern)
        and not view_of(pattern.callback).startswith(("game.web.", "django.contrib.auth."))
    ]
    assert not elsewhere, f"views outside game/web/: {elsewhere}"


def test_every_test_file_sits_in_the_folder_of_the_package_it_tests():
    """Tests mirror the source (tests/layout.py): a module's tests are found by its path."""
    assert not misplaced(), "put each by the package it tests (tests/layout.py)"


def test_every_screenshot_of_the_tests_is_taken_by_the_table_helpers():
    """tests/support/table.py writes them as JPEG (its SHOT says why): a `.screenshot(`
    elsewhere would bring PNG's cost back, one file at a time."""
    tests = GAME.parent / "tests"
    helpers = tests / "support" / "table.py"
    elsewhere = [
        f"{path.relative_to(tests)}:{node.lineno}"
        for path in sorted(tests.rglob("*.py"))
        if path != helpers
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "screenshot"
    ]
    assert not elsewhere, f"screenshots not taken by tests/support/table.py: {elsewhere}"


def test_a_test_driving_the_browser_outside_an_e2e_file_is_refused(pytestconfig):
    """Collection stops on such a test (tests/conftest.py): spread over the workers, its
    file's scripted race would be played once a worker, and no browser check would run."""
    conftest = pytestconfig.pluginmanager.getplugin(str(GAME.parent / "tests" / "conftest.py"))
    browser = ["worker_chromium", "chromium", "page"]

    def test_in(path, fixturenames):
        return SimpleNamespace(nodeid=f"{path}::test_x", fixturenames=fixturenames)

    assert conftest.drives_a_browser_unmarked(test_in("tests/staff/test_admin.py", browser))
    assert not conftest.drives_a_browser_unmarked(test_in("tests/web/test_layout.py", browser))
    assert not conftest.drives_a_browser_unmarked(test_in("tests/staff/test_admin.py", ["db"]))
