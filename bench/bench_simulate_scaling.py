"""How the cost of a simulated battle grows with party size, enemy count and rounds.

Run: ``.venv/bin/python bench/bench_simulate_scaling.py [BATTLES] [SCENARIO...]`` (default
1,000 battles of kegare-yashiro, kegare-minato, kokuryoku-yama and akatsuki-toride, one
process). Each row prints milliseconds per battle, the mean rounds played (battles that
end early are cheaper, so rounds are shown too), milliseconds per round played, and the
win rate. Rows vary one thing from the scenario: the reference party of 2/4/6/8, the
enemies doubled and quadrupled, the round limit 2/5/10/20 (akatsuki: the difficulty
targets x2/x4/x8, as it has no rounds). The machine's load average is printed before and
after, since the figures mean little on a loaded machine.
"""

from __future__ import annotations

import copy
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from saikoro.balance import Encounter, encounter, parse_party, reference_party, simulate
from saikoro.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("kegare-yashiro", "kegare-minato", "kokuryoku-yama", "akatsuki-toride")


def _rows(base: Encounter) -> list[tuple[str, Encounter]]:
    rows = []
    for size in (2, 4, 6, 8):
        party = parse_party(base.system, reference_party(base.system, size), f"ref-{size}")
        rows.append((f"party {size}", replace(base, party=party)))
    if base.system == "akatsuki":
        rows.extend((f"targets x{k}", replace(base, targets=base.targets * k)) for k in (2, 4, 8))
        return rows
    for k in (2, 4):
        more = tuple(
            replace(e, id=f"{e.id}-{j}") if hasattr(e, "id") else e
            for j in range(k)
            for e in base.enemies
        )
        rows.append((f"enemies x{k}", replace(base, enemies=more, defeat=())))
    rows.extend((f"rounds {n}", replace(base, round_limit=n)) for n in (2, 5, 10, 20))
    return rows


def main() -> int:
    args = sys.argv[1:]
    battles = int(args.pop(0)) if args and args[0].isdigit() else 1000
    names = args or list(DEFAULT)
    print(f"load average {os.getloadavg()[0]:.1f}; {battles} battles, 1 process")
    for name in names:
        res = load_scenario(ROOT / "scenarios" / f"{name}.yaml")
        assert res.scenario is not None, name
        base = encounter(res.scenario)
        print(f"  {name}")
        for label, enc in _rows(base):
            start = time.perf_counter()
            r = simulate(copy.copy(enc), battles=battles, seed=0, solve=False)
            seconds = time.perf_counter() - start
            rounds = sum(k * v for k, v in r.rounds.items()) / battles
            per_round = (
                f"{seconds / battles / rounds * 1000:6.3f} ms/round"
                if rounds and base.system != "akatsuki"
                else " " * 15
            )
            print(
                f"    {label:11} {seconds / battles * 1000:6.3f} ms/battle  {rounds:5.2f} rounds"
                f"  {per_round}  win {r.win * 100:3.0f}%"
            )
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
