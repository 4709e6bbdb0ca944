"""`requirements.lock` pins every runtime dependency of `pyproject.toml`, inside its range, with
hashes: the set `.ci/run` installs the wheel on."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def pinned() -> dict[str, tuple[str, int]]:
    """Each package the lock pins: its version and how many file hashes it lists."""
    pins: dict[str, tuple[str, int]] = {}
    name = None
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+)", line)
        if match:
            name = canonicalize_name(match.group(1))
            pins[name] = (match.group(2), 0)
        elif name and line.strip().startswith("--hash=sha256:"):
            version, hashes = pins[name]
            pins[name] = (version, hashes + 1)
    return pins


def test_the_lock_pins_every_runtime_dependency_inside_its_range_with_hashes():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = pinned()
    for text in dependencies:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is a dependency but requirements.lock does not pin it"
        version, hashes = pins[name]
        assert requirement.specifier.contains(version), (
            f"{name}=={version} is outside {requirement.specifier}"
        )
        assert hashes > 0, f"{name} has no hash in requirements.lock"
    assert all(hashes > 0 for _, hashes in pins.values())
