"""Pinned tools: the development environment is the one constraints.txt locks, and the
project's own site builds with ``--strict`` from a fresh clone.

``make setup`` installs with ``-c constraints.txt`` (written by ``make constraints`` on
purpose, never by the day's releases), so a release published tomorrow (mkdocstrings-python,
griffe, a linter) changes nothing until the pins are refreshed and the suite passes again.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

TOOLS = (
    "mkdocs",
    "mkdocs-material",
    "mkdocstrings",
    "mkdocstrings-python",
    "griffelib",
    "mkdocs-autorefs",
    "pymdown-extensions",
    "markdown",
    "pyyaml",
    "ruff",
    "mypy",
    "pytest",
    "pytest-xdist",
    "hypothesis",
    "jsonschema",
    "playwright",
    "pip",
)
"""What the build, the site and the checks depend on: each must be pinned."""


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version.strip(), f"not pinned with ==: {line!r}"
            pins[re.sub(r"[-_.]+", "-", name.strip().lower())] = version.strip()
    return pins


def test_every_tool_is_pinned_and_make_setup_uses_the_pins() -> None:
    pins = _pins()
    missing = [t for t in TOOLS if t not in pins]
    assert not missing, missing
    recipe = (ROOT / "Makefile").read_text("utf-8")
    installs = re.findall(r"^\t\$\(BIN\)/python -m pip install .*$", recipe, re.MULTILINE)
    assert installs and all("-c constraints.txt" in line for line in installs), installs
    assert re.search(r"^\$\(STAMPS\)/python: .*constraints\.txt", recipe, re.MULTILINE)
    assert "ruamel" not in (ROOT / "pyproject.toml").read_text("utf-8")  # one YAML reader


def test_this_environment_is_the_pinned_one() -> None:
    """Run ``make setup`` when this fails: the environment is older or newer than the pins."""
    pins = _pins()
    wrong = {}
    for dist in importlib.metadata.distributions():
        name = re.sub(r"[-_.]+", "-", dist.metadata["Name"].lower())
        if name in pins and dist.version != pins[name]:
            wrong[name] = (dist.version, pins[name])
    assert not wrong, f"installed != pinned (run make setup): {wrong}"


@pytest.mark.slow
def test_the_project_site_builds_strict_from_a_fresh_clone(tmp_path: Path) -> None:
    """The files a clone has (git's tracked files: no cache, no built site), built by the
    pinned MkDocs with ``--strict``: the API page's docstrings, the guide, the sample book."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    ).stdout.decode("utf-8")
    clone = tmp_path / "clone"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = clone / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("SITE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "WARNING" not in done.stderr, done.stderr[-4000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text("utf-8")
    assert "digit_count" in api and "1, 2, 2, 3, 4" in api
