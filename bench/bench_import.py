"""Import cost of the browser-shipped engine, in CPython and in Pyodide (Node.js).

Prints, for the engine at ``--package`` (default: this checkout's ``plugin/saikoro``),
the best of ``--runs`` fresh interpreters:

- CPython: ``import saikoro`` (``-X importtime``, cumulative), then the first generic
  roll and the first GETB roll (wall time, in the same interpreter);
- Pyodide (the pinned npm ``pyodide`` under Node.js, files written to its file system as
  the roller's worker does): the same three steps.

Each line also says whether :mod:`dataclasses` was loaded ``before`` saikoro (Pyodide
loads it at start-up), ``by`` ``import saikoro``, or ``no``t at all.

Compare two engines by running it twice (e.g. with ``--package`` pointing at a copy
whose ``dice/result.py`` differs)::

    .venv/bin/python bench/bench_import.py --runs 7
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "node_modules" / "pyodide"

STEPS = """
import json, sys, time
preloaded = "dataclasses" in sys.modules
t0 = time.perf_counter()
import saikoro
t1 = time.perf_counter()
loaded = ("before" if preloaded else "by") if "dataclasses" in sys.modules else "no"
saikoro.roll("2D6>=7")
t2 = time.perf_counter()
saikoro.roll("GB3>=8", system="getb")
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2, loaded, saikoro.__file__]))
"""

NODE = r"""
import { loadPyodide } from "PYODIDE/pyodide.mjs";
import fs from "fs";
import path from "path";
const py = await loadPyodide({ indexURL: "PYODIDE/" });
function copy(src, dest) {
  py.FS.mkdirTree(dest);
  for (const f of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, f.name);
    if (f.isDirectory() && f.name !== "__pycache__") copy(from, dest + "/" + f.name);
    else if (f.name.endsWith(".py")) py.FS.writeFile(dest + "/" + f.name, fs.readFileSync(from));
  }
}
py.FS.mkdirTree("/engine/saikoro");
py.FS.writeFile("/engine/saikoro/__init__.py", fs.readFileSync("PKG/__init__.py"));
copy("PKG/dice", "/engine/saikoro/dice");
copy("PKG/systems", "/engine/saikoro/systems");
py.runPython(`import sys; sys.path.insert(0, "/engine")`);
let out = "";
py.setStdout({ batched: (s) => { out += s + "\n"; } });
py.runPython(STEPS);
process.stdout.write(out);
"""


def _cpython(package: Path, runs: int) -> list[tuple[float, float, float, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # A copy holding only the engine, so nothing else of the package is importable.
        engine = Path(tmp) / "saikoro"
        engine.mkdir()
        shutil.copy2(package / "__init__.py", engine / "__init__.py")
        for part in ("dice", "systems"):
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(package / part, engine / part, ignore=ignore)
        env = dict(os.environ, PYTHONPATH=tmp)
        for run in range(runs + 1):  # the first run writes the .pyc files and is not counted
            proc = subprocess.run(
                [sys.executable, "-X", "importtime", "-c", STEPS],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp,
                check=True,
            )
            _, roll, getb, loaded, where = json.loads(proc.stdout)
            if not where.startswith(tmp):
                raise SystemExit(f"saikoro was imported from {where}, not from the copy")
            match = re.search(r"\|\s*(\d+) \| saikoro$", proc.stderr, re.MULTILINE)
            if match is None:
                raise SystemExit("no importtime line for saikoro")
            if run:
                rows.append((int(match.group(1)) / 1e6, roll, getb, loaded))
    return rows


def _pyodide(package: Path) -> tuple[float, float, float, str]:
    script = NODE.replace("PYODIDE/", PYODIDE.as_posix() + "/").replace("PKG", package.as_posix())
    script = script.replace("py.runPython(STEPS)", f"py.runPython({json.dumps(STEPS)})")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.mjs"
        path.write_text(script, encoding="utf-8")
        proc = subprocess.run(
            ["node", str(path)], capture_output=True, text=True, check=True, timeout=300
        )
    first, roll, getb, loaded, where = json.loads(proc.stdout.strip().splitlines()[-1])
    if not where.startswith("/engine/"):
        raise SystemExit(f"Pyodide imported saikoro from {where}")
    return first, roll, getb, loaded


def _best(rows: list[tuple[float, float, float, str]]) -> str:
    imp = min(r[0] for r in rows) * 1000
    roll = min(r[1] for r in rows) * 1000
    getb = min(r[2] for r in rows) * 1000
    loaded = {r[3] for r in rows}
    return (
        f"import saikoro {imp:7.1f} ms | first 2D6>=7 {roll:7.1f} ms | "
        f"first GB3>=8 {getb:7.1f} ms | dataclasses loaded {'/'.join(sorted(loaded))} import"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", type=Path, default=ROOT / "plugin" / "saikoro")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-pyodide", action="store_true")
    args = parser.parse_args(argv)
    package = args.package.resolve()
    print(f"engine: {package}")
    print("CPython ", _best(_cpython(package, args.runs)))
    if not args.no_pyodide:
        print("Pyodide ", _best([_pyodide(package) for _ in range(args.runs)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
