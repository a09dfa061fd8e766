"""Benchmark: a large differential run of saikoro against the real BCDice 3.16.1.

Random generic commands (another seed than the test suite's, and many more) are
rolled by BCDice (npm ``bcdice`` 4.9.0, one Node.js process) and replayed into
``saikoro.roll`` with BCDice's dice; text and flags must agree (see
``tests/bcdice/differential.py``). Printed: the agreement counts, per family, the
differences (if any), and the time per roll of each side: bcdice-js evaluating a
command against saikoro parsing and rolling it (replay and comparison included, so
saikoro's figure is an upper bound). Last, the hostile commands of
``tests/test_dice_hostile.py``: the slowest answer or refusal of ``roll`` and
``odds`` (each must stay under a second).

Run: ``.venv/bin/python bench/bench_differential.py [--count N] [--seed S]``
(exit status 1 when a command differs).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import saikoro
from bcdice.differential import compare, edge_probes, generate
from test_dice_hostile import HOSTILE


def hostile_times() -> list[tuple[float, str, str]]:
    """``(seconds, function, command)`` for every hostile command, slowest first."""
    times = []
    for command in HOSTILE:
        for call in (saikoro.roll, saikoro.odds):
            start = time.perf_counter()
            with contextlib.suppress(saikoro.DiceError):
                call(command)
            times.append((time.perf_counter() - start, call.__name__, command))
    return sorted(times, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=31337)
    args = parser.parse_args()
    report = compare(generate(args.count, args.seed))
    probes = compare(edge_probes())
    print(f"BCDice 3.16.1 differential, seed {args.seed}: {report.summary()}")
    for family, (done, good) in sorted(report.by_family.items()):
        print(f"  {family:20} {good:6}/{done:<6}")
    print(f"edge probes: {probes.summary()}")
    for problem in (report.mismatches + probes.mismatches)[:50]:
        print(f"  DIFF {problem}")
    per_bcdice = report.bcdice_ms / report.total
    per_saikoro = report.saikoro_ms / report.total
    print(
        f"time per roll (random commands): bcdice-js {per_bcdice * 1000:.0f} µs, "
        f"saikoro {per_saikoro * 1000:.0f} µs (saikoro {per_bcdice / per_saikoro:.1f}x faster)"
    )
    slow = hostile_times()
    over = sum(1 for t, _, _ in slow if t > 1.0)
    print(f"hostile commands: {len(HOSTILE)}, slowest answers ({over} over 1 s):")
    for seconds, name, command in slow[:5]:
        print(f"  {seconds * 1000:7.1f} ms  {name:4}  {command[:60]!r}")
    return 1 if report.mismatches or probes.mismatches or over else 0


if __name__ == "__main__":
    sys.exit(main())
