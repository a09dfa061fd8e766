"""The toy system (``examples/saikoro-toy``) installed as a plugin author's users get it
(not a test module): ``pip install --target`` a copy into a folder, with its dist-info and
its one entry-point line, and commands run with that folder on ``PYTHONPATH``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "examples" / "saikoro-toy"


def install_toy(source: Path, target: Path) -> Path:
    """The toy package copied into ``source`` and installed into ``target`` (returned): the
    checkout stays clean, and the installed files can be edited as a plugin author would."""
    source = source / "saikoro-toy"
    shutil.copytree(
        TOY, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    if not (target / "saikoro_toy" / "sample.yaml").is_file():
        raise RuntimeError(f"the toy was not installed into {target}")
    return target


def toy_env(toy: Path) -> dict[str, str]:
    """A subprocess environment that finds the installed toy (no MkDocs 2 banner)."""
    environ = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    environ["PYTHONPATH"] = os.pathsep.join([str(toy), environ.get("PYTHONPATH", "")])
    return environ
