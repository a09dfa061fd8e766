"""Time of the exact solutions (goal: the 1-vs-1 chase solved exactly in at most 2 s).

Run: ``.venv/bin/python bench/bench_exact.py``. Solves, in one process, the 1-vs-1 chase
(a courier fleeing one car, as in the balance issue) and every sample scenario the
simulators solve exactly, and prints each time, its ratio to the 2 s goal, and the
counted budget it used; then the whole ``saikoro simulate`` of the chase (10,000
battles with ``--jobs 2``, the solution beside them).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from saikoro.balance import (
    Budget,
    Encounter,
    OutOfBudget,
    encounter,
    scenario_tactics,
    simulator_for,
)
from saikoro.scenario import load_scenario, validate_text

ROOT = Path(__file__).resolve().parent.parent
GOAL = 2.0

CHASE = """\
system: cutaction
title: 逃走
players: 1
party:
  - {name: 運び屋, body: 7, head: 5, hp: 12}
difficulty_targets:
  - {name: 港まで逃げる, check: body, target: 1, kind: chase}
enemies:
  - {id: car, name: 追跡車, body: 6, head: 4, hp: 10, vehicle: 黒い車}
missions:
  main: {success: 逃げ切る}
"""


def _solve(label: str, enc: Encounter) -> None:
    sim = simulator_for(enc.system)
    prep = sim.prepare(enc, scenario_tactics(enc))
    budget = Budget()
    start = time.perf_counter()
    try:
        win, _ = sim.exact(prep, budget)
    except OutOfBudget:
        print(f"  {label:22} over the budget ({budget.limit:,})")
        return
    seconds = time.perf_counter() - start
    if win is None:
        return
    print(
        f"  {label:22} {seconds:6.2f} s  ({seconds / GOAL:.2f} x {GOAL:.0f} s)  "
        f"P(win) {float(win):.4f}  budget used {budget.used:,} of {budget.limit:,}"
    )


def main() -> int:
    print("exact solutions (one process):")
    chase = validate_text(CHASE, "chase.yaml").scenario
    assert chase is not None
    _solve("1-vs-1 chase", encounter(chase))
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        res = load_scenario(path)
        assert res.scenario is not None, path
        _solve(path.stem, encounter(res.scenario))
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "chase.yaml"
        file.write_text(CHASE, "utf-8")
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "saikoro", "simulate", "--jobs", "2", "--format", "json", file],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        seconds = time.perf_counter() - start
    print(f"saikoro simulate of the chase (10,000 battles, jobs 2, exact beside): {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
