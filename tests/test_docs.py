"""
The docs stay true where a test can tell: docs/architecture.md's package table names
every package of game/ and no other, in the layers' order of pyproject.toml's
import-linter contract (a row "beside" others names its layer's other packages), and
only modules that exist; and every link to a section of a doc finds that section
(sections move: the measurements went to performance.md).
"""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
DOCS = ROOT / "docs"
TABLE_SECTION = "## The house: packages by job, one-way layers"
ROW = re.compile(r"^\| `(\w+)` \|(.*)\|(.*)\|$")
LINK = re.compile(r"\]\(([\w./-]*\.md)?#([^)\s]+)\)")


def table_rows():
    """The table's rows, in order: (package, its job, its modules' cell)."""
    text = (DOCS / "architecture.md").read_text()
    section = text.split(TABLE_SECTION, 1)[1].split("\n## ", 1)[0]
    return [match.groups() for line in section.splitlines() if (match := ROW.match(line))]


def package_table():
    """The table's rows, in order: (package, its modules as the table names them)."""
    return [(package, re.findall(r"`(\w+)`", modules)) for package, _, modules in table_rows()]


def test_the_package_table_names_every_package_and_no_other():
    listed = [package for package, _ in package_table()]
    packages = {path.parent.name for path in GAME.glob("*/__init__.py")}
    assert len(listed) == len(set(listed)), f"a package listed twice: {listed}"
    assert not packages - set(listed), f"packages missing from the table: {packages - set(listed)}"
    assert not set(listed) - packages, f"rows that are no package: {set(listed) - packages}"


def test_the_package_table_names_only_modules_that_exist():
    missing = [
        f"game/{package}/{module}"
        for package, modules in package_table()
        for module in modules
        if not (GAME / package / f"{module}.py").exists()
        and not (GAME / package / module / "__init__.py").exists()
    ]
    assert not missing, f"modules the table names that do not exist: {missing}"


def test_the_package_table_names_every_module_of_its_package():
    """A new module takes its place in its package's row (the table's lists are by hand:
    this test keeps them whole)."""
    unlisted = [
        f"game/{package}/{path.stem}"
        for package, modules in package_table()
        if package != "migrations"
        for path in sorted((GAME / package).glob("*.py"))
        if path.stem != "__init__" and path.stem not in modules
    ]
    assert not unlisted, f"modules missing from docs/architecture.md's table: {unlisted}"


def test_the_package_table_follows_the_layers_top_first():
    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c["layers"] for c in contract["contracts"] if c["type"] == "layers")
    level = {
        name.strip().removeprefix("game."): depth
        for depth, layer in enumerate(layers)
        for name in layer.split("|")
    }
    order = [level[package] for package, _ in package_table() if package in level]
    assert order == sorted(order), "the table's rows are not in the contract's order"
    siblings = {
        package: set(re.findall(r"`(\w+)`", beside[0]))
        for package, job, _ in table_rows()
        if (beside := re.findall(r"^ *\(beside ([^)]*)\)", job))
    }
    for package, beside in siblings.items():
        shares = {name for name in level if name != package and level[name] == level[package]}
        assert beside == shares, f"{package}: beside {beside}, but its layer holds {shares}"


def slug(heading):
    """A heading's anchor as GitHub makes it."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    for line in path.read_text().splitlines():
        if match := re.match(r"^#{1,6} (.+)$", line):
            base = slug(match[1])
            found.add(base if base not in seen else f"{base}-{seen[base]}")
            seen[base] = seen.get(base, 0) + 1
    return found


def test_every_link_to_a_section_of_a_doc_finds_it():
    broken = []
    for source in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target, anchor in LINK.findall(source.read_text()):
            doc = (source.parent / target).resolve() if target else source
            if doc.exists() and anchor not in anchors(doc):
                broken.append(f"{source.relative_to(ROOT)}: {target}#{anchor}")
    assert not broken, f"links to sections that are not there: {broken}"


def test_the_architecture_map_stays_a_map():
    """Measurements and their history go to performance.md, the race core's depth to
    internals.md: the map a newcomer reads first stays within 300 lines."""
    lines = (DOCS / "architecture.md").read_text().splitlines()
    assert len(lines) <= 300, f"docs/architecture.md has {len(lines)} lines"


MODULE_PATH = re.compile(r"(?<![\w/.-])(?:game/)?((?:%s)/[\w/]+\.py)")
DOTTED = re.compile(r"(?<![\w.])game\.((?:%s)(?:\.\w+)+)")


IN_THE_SCHEMA = {
    "game.race.verify",
    "game/race/verify.py",
    "game/race/fairplay.py",
    "game/race/rated.py",
    "game/players/ratings.py",
}
"""Old paths in the models' help texts and choices (game/models/): they are the schema's,
and changing them is a migration; they follow at the next schema change (the modules
are game/results/ and game/players/player_ratings.py)."""


def texts_that_name_modules():
    """The docs, the README and every module's own text (docstrings and comments)."""
    yield from sorted(DOCS.glob("*.md"))
    yield ROOT / "README.md"
    yield from (path for path in sorted(GAME.rglob("*.py")) if "migrations" not in path.parts)


def named_module_exists(dotted):
    """`a.b.c` is a module or package of game/, or a name inside one."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        path = GAME.joinpath(*parts[:end])
        if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
            return True
    return False


def test_every_module_the_docs_and_the_code_name_exists():
    """A module moves or is renamed: every text naming it by path (`game/results/rated.py`,
    `base/limits.py`) or dotted (`game.solver.pool`) follows, or this test names it."""
    packages = "|".join(sorted(path.parent.name for path in GAME.glob("*/__init__.py")))
    by_path, dotted = (
        re.compile(MODULE_PATH.pattern % packages),
        re.compile(DOTTED.pattern % packages),
    )
    missing = []
    for text in texts_that_name_modules():
        content, where = text.read_text(), text.relative_to(ROOT)
        named = [m for m in by_path.findall(content) if f"game/{m}" not in IN_THE_SCHEMA]
        missing += [f"{where}: {m}" for m in named if not (GAME / m).exists()]
        missing += [
            f"{where}: game.{m}" for m in dotted.findall(content) if not named_module_exists(m)
        ]
    assert not missing, f"modules named that do not exist: {sorted(set(missing))}"
