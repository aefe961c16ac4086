"""
The lock (requirements/*.txt, `make lock`) is what runs: every set agrees with the one
resolution it was cut from, names every pin of pyproject.toml, and this venv has the
locked version of each package, so a venv that drifted (a hand-run `pip install -U`)
fails the suite instead of testing something production will not run.
"""

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "requirements"
SETS = ("base", "test", "bench", "lint")
BUILD_ONLY = {"setuptools"}
"""Builds the project at install time; nothing imports it, and a venv made before the
lock keeps its own (the next `make` target that installs brings the locked one)."""


def locked(name):
    """{package: (version, marker or None, its sha256s)} of one lock file."""
    text = (LOCKS / f"{name}.txt").read_text().replace("\\\n", " ")
    entries = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            spec, *hashes = re.split(r"\s+--hash=sha256:", line.strip())
            requirement = Requirement(spec)
            (pin,) = requirement.specifier
            assert pin.operator == "==" and hashes, f"{name}.txt: {spec} is not locked"
            marker = str(requirement.marker) if requirement.marker else None
            entries[canonicalize_name(requirement.name)] = (pin.version, marker, sorted(hashes))
    return entries


def applies(marker):
    return marker is None or Marker(marker).evaluate()


def test_every_locked_file_has_hashes_and_every_set_is_cut_from_the_one_resolution():
    everything = locked("all")
    assert len(everything) > 60
    for name in SETS:
        entries = locked(name)
        assert {package: everything.get(package) for package in entries} == entries, name


def test_every_pin_of_pyproject_is_locked_at_its_version_in_its_set():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {"base": project["project"]["dependencies"] + project["build-system"]["requires"]}
    wanted.update(project["project"]["optional-dependencies"])
    for name, requirements in wanted.items():
        entries = locked(name)
        for requirement in map(Requirement, requirements):
            version, _, _ = entries[canonicalize_name(requirement.name)]
            assert requirement.specifier.contains(version), (name, str(requirement), version)
        if name != "base":  # each set installs on its own: the runtime comes with it
            assert locked("base").items() <= entries.items(), name


def installed(package):
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def test_this_venv_has_the_locked_version_of_every_package_it_installed():
    """Every package of the test set must be there; a bench or lint one, if installed."""
    drifted = {}
    for name in ("test", "bench", "lint"):
        for package, (version, marker, _) in locked(name).items():
            have = installed(package)
            optional = name != "test" and have is None
            if applies(marker) and package not in BUILD_ONLY and not optional and have != version:
                drifted[package] = f"locked {version}, installed {have}"
    assert drifted == {}, "the venv differs from the lock: `make clean-venv`, then `make test`"


@pytest.mark.parametrize("package", ["django", "twisted", "autobahn", "daphne", "channels-redis"])
def test_the_check_above_sees_the_packages_the_patches_depend_on(package):
    version, marker, hashes = locked("base")[package]
    assert applies(marker) and hashes and installed(package) == version
