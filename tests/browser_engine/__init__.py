"""Run the browser's engine (MicroPython, Node.js) on commands: :func:`run`."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from saikoro.site._roller import _ASSETS, engine_bundles, find_runtime_dir

DRIVER = Path(__file__).resolve().with_name("driver.mjs")

Case = tuple[str, str, str, str]
"""(command, system, options JSON or "", dice JSON or "")."""


class NodeUnavailableError(RuntimeError):
    """Node.js is missing (``make setup`` needs it for the npm packages too)."""


def run(cases: Sequence[Case], *, systems: Sequence[str] | None = None) -> list[dict[str, object]]:
    """Each case's answer from ``_mp_worker.roll`` on MicroPython, parsed from JSON.

    ``systems``: the system bundles to load (default: every one).
    """
    node = shutil.which("node")
    if node is None:
        raise NodeUnavailableError("Node.js is needed to run the MicroPython engine")
    bundles = engine_bundles()
    wanted = ["core", *(systems if systems is not None else [n for n in bundles if n != "core"])]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name in wanted:
            path = Path(tmp) / f"{name}.gz"
            path.write_bytes(bundles[name].data)
            paths.append(str(path))
        request = {
            "runtime": str(find_runtime_dir()),
            "host": str(_ASSETS / "mphost.mjs"),
            "bundles": paths,
            "cases": [list(c) for c in cases],
        }
        request_path = Path(tmp) / "request.json"
        request_path.write_text(json.dumps(request, ensure_ascii=False), encoding="utf-8")
        done = subprocess.run(
            [node, str(DRIVER), str(request_path)],
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
            timeout=1800,
        )
    if done.returncode != 0:
        raise RuntimeError(f"the MicroPython driver failed:\n{done.stderr[-4000:]}")
    lines = done.stdout.splitlines()
    if len(lines) != len(cases):
        raise RuntimeError(f"{len(lines)} answers for {len(cases)} cases:\n{done.stderr[-4000:]}")
    return [json.loads(line) for line in lines]
