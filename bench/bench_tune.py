"""Time per ``saikoro tune`` on the sample book (goal: each tune in at most 30 s, ``--jobs 2``).

Run: ``.venv/bin/python bench/bench_tune.py [--jobs=N] [NAME...]``. For each sample scenario
with a ``balance.win`` it times two tunes, each from a copy of the file:

* as written (in range: the sensitivity only, no search);
* made too hard or too easy on purpose: the target moved 25 points away from the
  scenario's own figure (above it when there is room, else below), so the search,
  the pairs if needed and the confirmation all run;

and prints the time, the measurements, the best suggestion and the ratio to the budget; then
the sensitivity table of one sample (``--table=NAME``, default kegare-yashiro) as ``saikoro
tune`` prints it: each number's change per step with its 95 % interval and the two
``simulate`` figures it compares.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from saikoro.scenario import load_scenario
from saikoro.tune import TuneResult, tune
from saikoro.tune._cli import sensitivity_line

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 30.0


def _moved(text: str, win: float) -> str:
    """The file with its balance.win moved 25 points away from ``win``."""
    if win <= 0.6:
        low, high = win + 0.2, min(1.0, win + 0.35)
    else:
        low, high = max(0.0, win - 0.35), win - 0.2
    lines = []
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("win:") and "%" in line:
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(f"{indent}win: {low * 100:.0f}%-{high * 100:.0f}%\n")
        else:
            lines.append(line)
    return "".join(lines)


def _run(path: Path, jobs: int) -> tuple[float, TuneResult]:
    sc = load_scenario(path).scenario
    if sc is None:
        raise SystemExit(f"{path} does not validate")
    start = time.perf_counter()
    r = tune(sc, jobs=jobs)
    return time.perf_counter() - start, r


def _line(label: str, seconds: float, r: TuneResult) -> str:
    best = r.suggestions[0] if r.suggestions else None
    if best is None:
        what = r.reason or "-"
    else:
        change = "; ".join(c.yaml_text() + f" ({c.label})" for c in best.changes)
        state = "confirmed" if best.confirmed else "not confirmed"
        what = f"{change} -> {best.measure.value * 100:.1f}% ({state})"
    return (
        f"  {label:<9} {seconds:6.1f} s  {seconds / BUDGET:4.2f}x budget  "
        f"{r.measured:3d} measured  base {r.baseline.value * 100:5.1f}%  "
        f"target {r.target_text:<9} {what}"
    )


def main(argv: list[str]) -> None:
    jobs = 2
    table = "kegare-yashiro"
    names = []
    for a in argv:
        if a.startswith("--jobs="):
            jobs = int(a.split("=", 1)[1])
        elif a.startswith("--table="):
            table = a.split("=", 1)[1]
        else:
            names.append(a)
    files = sorted((ROOT / "scenarios").glob("*.yaml"))
    if names:
        files = [f for f in files if f.stem in names]
    print(f"saikoro tune on the sample book (--jobs {jobs}; budget {BUDGET:.0f} s per tune)")
    worst = 0.0
    tables: dict[str, TuneResult] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            sc = load_scenario(path).scenario
            if sc is None or sc.model.balance is None or not sc.model.balance.win:
                continue
            copy = Path(tmp) / path.name
            shutil.copy(path, copy)
            if not (Path(tmp) / "images").exists():  # the images the samples show
                shutil.copytree(path.parent / "images", Path(tmp) / "images")
            print(path.stem)
            seconds, r = _run(copy, jobs)
            worst = max(worst, seconds)
            print(_line("as is", seconds, r))
            tables[path.stem] = r
            copy.write_text(_moved(path.read_text("utf-8"), r.baseline.value), "utf-8")
            seconds, r = _run(copy, jobs)
            worst = max(worst, seconds)
            print(_line("moved", seconds, r))
    print(f"slowest tune: {worst:.1f} s ({worst / BUDGET:.2f}x the {BUDGET:.0f} s budget)")
    shown = tables.get(table)
    if shown is not None:
        b = shown.baseline
        print(
            f"sensitivity table of {table} (seed {shown.seed}; win {b.value * 100:.1f}% "
            f"[{b.low * 100:.1f}%, {b.high * 100:.1f}%], {b.battles} battles):"
        )
        for s in shown.sensitivities:
            print(f"  {sensitivity_line(s)}")


if __name__ == "__main__":
    main(sys.argv[1:])
