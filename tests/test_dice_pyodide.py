"""The engine in Pyodide (Node.js, the pinned npm ``pyodide``): deep input at the bounds.

The browser runs ``saikoro.dice`` in Pyodide, whose WebAssembly stack is far smaller
than a native one: freeing an expression tree of about 5000 levels overflows it and
kills the runtime. Commands at ``MAX_NESTING`` must give the same texts there as in
CPython, and deeper ones must be refused there too. Not skipped when Node.js or the
package is missing: ``make setup`` installs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import saikoro

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "node_modules" / "pyodide"
DICE = ROOT / "plugin" / "saikoro" / "dice"

N = 3000
COMMANDS = [
    "(" * N + "1D6" + ")" * N,
    "1D6" + "+1" * N,
    "-" * N + "1D6",
    "C(" + "-" * (N - 1) + "1)",
    "C(" + "(" * (N - 1) + "1" + ")" * (N - 1) + ")",
    "(1+" * 1500 + "1D6" + ")" * 1500,
    "C(" + "(1+" * 1499 + "1" + ")" * 1499 + ")",
    "1D6*" + "(" * (N - 1) + "1D6" + ")" * (N - 1),
    "x2 1D6" + "-1" * N,
    "1U6[6]+" + "1+" * (N - 2) + "1",
    "2B6>" + "(" * (N - 1) + "1" + ")" * (N - 1),
    "C(1" + "/1" * (N - 1) + ")",
    "1D6" + "/1U" * N,
    "(" * N + "1" + ")" * N + "D6",
    "(" * (N + 1) + "1D6" + ")" * (N + 1),
    "1D6" + "+1" * 4990,
]

_SCRIPT = r"""
import { loadPyodide } from "PYODIDE/pyodide.mjs";
import fs from "fs";
const py = await loadPyodide({ indexURL: "PYODIDE/" });
py.FS.mkdirTree("/lib/sk/saikoro/dice");
py.FS.writeFile("/lib/sk/saikoro/__init__.py", "");
for (const f of fs.readdirSync("DICE")) {
  if (f.endsWith(".py")) py.FS.writeFile("/lib/sk/saikoro/dice/" + f, fs.readFileSync("DICE/" + f));
}
py.globals.set("CASES", fs.readFileSync("CASES_FILE", "utf-8"));
console.log(py.runPython(`
import json, sys
sys.path.insert(0, "/lib/sk")
from saikoro.dice._api import odds, roll
from saikoro.dice import DiceError
out = []
for command in json.loads(CASES):
    answer = []
    for run in (lambda: roll(command, dice=[(6, 3)] * 4).text, lambda: str(odds(command).mean)):
        try:
            answer.append(run())
        except DiceError as exc:
            answer.append(type(exc).__name__ + ":" + getattr(exc, "bound", ""))
    out.append(answer)
json.dumps(out)
`));
"""


def _native(command: str) -> list[str]:
    answer = []
    runs: tuple[Callable[[], str], ...] = (
        lambda: saikoro.roll(command, dice=[(6, 3)] * 4).text,  # type: ignore[union-attr]
        lambda: str(saikoro.odds(command).mean),  # type: ignore[union-attr]
    )
    for run in runs:
        try:
            answer.append(run())
        except saikoro.DiceError as exc:
            answer.append(type(exc).__name__ + ":" + getattr(exc, "bound", ""))
    return answer


def test_deep_commands_in_pyodide(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "node (Node.js) is needed: it runs Pyodide here"
    assert (PYODIDE / "pyodide.mjs").is_file(), f"{PYODIDE} is missing: run `make setup`"
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(COMMANDS), encoding="utf-8")
    script = (
        _SCRIPT.replace("PYODIDE", PYODIDE.as_posix())
        .replace("DICE", DICE.as_posix())
        .replace("CASES_FILE", cases.as_posix())
    )
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, f"Pyodide failed:\n{proc.stderr[-3000:]}"
    answers = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = [_native(c) for c in COMMANDS]
    assert answers == expected
    assert expected[-2] == ["LimitError:nesting"] * 2


@pytest.mark.parametrize("command", COMMANDS[:3])
def test_native_answers_at_the_bound(command: str) -> None:
    assert not _native(command)[0].startswith("LimitError")
