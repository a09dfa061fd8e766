"""Battles per second of ``saikoro simulate`` per system (goal: 10,000 battles of each
sample scenario in at most 10 s with ``--jobs 2``).

Run: ``.venv/bin/python bench/bench_simulate.py [BATTLES] [--scaling] [--systems=a,b]``.
For each sample scenario (of the listed systems only, with ``--systems``) it times
BATTLES battles (default 10,000) with two processes and prints the battles per second
and the ratio to the 10 s budget; ``--scaling`` also shows how the
cost per battle grows with party size, enemy count and the round limit (one process).
"""

from __future__ import annotations

import copy
import sys
import time
from dataclasses import replace
from pathlib import Path

from saikoro.balance import Encounter, encounter, parse_party, reference_party, simulate
from saikoro.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 10.0


def _timed(enc: Encounter, battles: int, jobs: int) -> tuple[float, float]:
    start = time.perf_counter()
    r = simulate(enc, battles=battles, seed=0, jobs=jobs, solve=False)
    return time.perf_counter() - start, r.win


def scaling(battles: int = 1000) -> None:
    """Cost per battle against party size, enemy count and rounds (kegare, getb, cutaction)."""
    print("\nscaling (1 process, ms per battle):")
    for name in ("kegare-yashiro", "getb-kyuuchi", "cutaction-tou"):
        res = load_scenario(ROOT / "scenarios" / f"{name}.yaml")
        assert res.scenario is not None
        base = encounter(res.scenario)
        rows = []
        for size in (2, 4, 6):
            party = parse_party(base.system, reference_party(base.system, size), f"ref-{size}")
            enc = replace(base, party=party)
            rows.append((f"party {size}", enc))
        more = tuple(
            replace(e, id=f"{e.id}-{k}") if hasattr(e, "id") else e
            for k in range(2)
            for e in base.enemies
        )
        rows.append(("enemies x2", replace(base, enemies=more, defeat=())))
        rows.extend((f"rounds {n}", replace(base, round_limit=n)) for n in (2, 4, 8))
        cells = []
        for label, enc in rows:
            seconds, _ = _timed(copy.copy(enc), battles, 1)
            cells.append(f"{label}: {seconds / battles * 1000:.2f}")
        print(f"  {name:18} " + "  ".join(cells))


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    battles = int(args[0]) if args else 10000
    print(f"{battles} battles per sample scenario, jobs 2 (budget {BUDGET:.0f} s each)")
    worst = 0.0
    per_system: dict[str, list[float]] = {}
    only = [a.split("=", 1)[1].split(",") for a in sys.argv[1:] if a.startswith("--systems=")]
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        res = load_scenario(path)
        assert res.scenario is not None, path
        enc = encounter(res.scenario)
        if only and enc.system not in only[0]:
            continue
        seconds, win = _timed(enc, battles, 2)
        rate = battles / seconds
        per_system.setdefault(enc.system, []).append(rate)
        worst = max(worst, seconds)
        print(
            f"  {path.stem:22} {seconds:6.2f} s  {rate:8.0f} battles/s  "
            f"win {win * 100:5.1f}%  ({seconds / BUDGET:.2f} x budget)"
        )
    print("per system (slowest sample):")
    for system, rates in sorted(per_system.items()):
        print(f"  {system:10} {min(rates):8.0f} battles/s")
    print(f"slowest: {worst:.2f} s = {worst / BUDGET:.2f} x the {BUDGET:.0f} s budget")
    if "--scaling" in sys.argv:
        scaling()
    return 0


if __name__ == "__main__":
    sys.exit(main())
